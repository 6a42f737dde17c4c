import fc from "fast-check";
import examples from "libphonenumber-js/examples.mobile.json";
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";
import { describe, expect, test } from "vitest";
import { plainPhoneNumber } from "./plain-phone";

const countries = getCountries();
const separators = fc.constantFrom("", "", " ", "-", ".", "/", " / ", "(", ")", "  ");

// A country's example mobile with some digits changed (valid and invalid ones, and other countries' numbers), written
// nationally, with its calling code or the international prefix, in groups cut by separators people type.
const typedNumber = fc
  .tuple(
    fc.constantFrom(...countries),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 9 })), { maxLength: 2 }),
    fc.constantFrom("national", "national", "international", "idd", "trunk", "without plus"),
    fc.array(fc.tuple(fc.nat(), separators), { maxLength: 4 }),
    separators,
  )
  .map(([country, changes, form, cuts, lead]) => {
    const digits = (examples as Record<string, string>)[country]?.split("") ?? ["1", "2", "3"];
    for (const [at, digit] of changes) digits[at % digits.length] = String(digit);
    let national = digits.join("");
    for (const [at, separator] of cuts) {
      const index = at % (national.length + 1);
      national = national.slice(0, index) + separator + national.slice(index);
    }
    const callingCode = getCountryCallingCode(country);
    const written = {
      national: `${lead}${national}`,
      international: `+${callingCode}${lead}${national}`,
      idd: `00${callingCode}${lead}${national}`,
      trunk: `+${callingCode} (0)${national}`,
      "without plus": `${callingCode} ${national}`,
    }[form];
    return [country, written] as const;
  });

// Read in the number's own country mostly, else in any.
const textAndCountry = fc
  .tuple(typedNumber, fc.constantFrom(...countries), fc.boolean())
  .map(([[own, text], other, inOwn]) => [text, inOwn ? own : other] as const);

function libraryNumber(text: string, country: CountryCode): { number: string; kind: "mobile" | "other" } | undefined {
  const phone = parsePhoneNumberFromString(text, { defaultCountry: country });
  if (!phone?.isValid()) return undefined;
  const type = phone.getType();
  return { number: phone.number, kind: type === "MOBILE" || type === "FIXED_LINE_OR_MOBILE" ? "mobile" : "other" };
}

describe("plainPhoneNumber", () => {
  test("finds the number the library finds valid, and its type, wherever it decides", () => {
    fc.assert(
      fc.property(textAndCountry, ([text, country]) => {
        const plain = plainPhoneNumber(text, country);
        if (plain !== undefined) expect(plain).toEqual(libraryNumber(text, country));
      }),
      { numRuns: 20_000 },
    );
  });

  test("decides the common formats itself", () => {
    const decided: [string, CountryCode, string, "mobile" | "other"][] = [
      ["0171 2345678", "DE", "+491712345678", "mobile"],
      ["(0171) 234-56 78", "DE", "+491712345678", "mobile"],
      ["0171/2345678", "DE", "+491712345678", "mobile"],
      ["+49 171 2345678", "DE", "+491712345678", "mobile"],
      ["+49 (0)171 2345678", "DE", "+491712345678", "mobile"],
      ["0049 171 2345678", "DE", "+491712345678", "mobile"],
      ["030 12345678", "DE", "+493012345678", "other"],
      ["0800 1234567", "DE", "+498001234567", "other"],
      ["0900 1234567", "DE", "+499001234567", "other"],
      ["(212) 555-2368", "US", "+12125552368", "mobile"],
      ["212.555.2368", "US", "+12125552368", "mobile"],
      ["+1 212 555 2368", "US", "+12125552368", "mobile"],
      ["1 (212) 555-2368", "US", "+12125552368", "mobile"],
      ["07911 123456", "GB", "+447911123456", "mobile"],
      ["+44 7911 123456", "DE", "+447911123456", "mobile"],
    ];
    for (const [text, country, number, kind] of decided) expect(plainPhoneNumber(text, country)).toEqual({ number, kind });
  });

  test("leaves the library what it does not repeat: other characters, too few digits, invalid numbers", () => {
    for (const [text, country] of [
      ["0171 2345678 ext. 12", "DE"],
      ["n/a", "DE"],
      ["12", "DE"],
      ["0171 23", "DE"],
    ] as const) {
      expect(plainPhoneNumber(text, country)).toBeUndefined();
    }
  });
});

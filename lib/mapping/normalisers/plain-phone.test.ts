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

function libraryNumber(text: string, country: CountryCode): string | undefined {
  const phone = parsePhoneNumberFromString(text, { defaultCountry: country });
  return phone?.isValid() ? phone.number : undefined;
}

describe("plainPhoneNumber", () => {
  test("finds the number the library finds valid, wherever it decides", () => {
    fc.assert(
      fc.property(textAndCountry, ([text, country]) => {
        const plain = plainPhoneNumber(text, country);
        if (plain !== undefined) expect(plain).toBe(libraryNumber(text, country));
      }),
      { numRuns: 20_000 },
    );
  });

  test("decides the common formats itself", () => {
    const decided: [string, CountryCode, string][] = [
      ["0171 2345678", "DE", "+491712345678"],
      ["(0171) 234-56 78", "DE", "+491712345678"],
      ["0171/2345678", "DE", "+491712345678"],
      ["+49 171 2345678", "DE", "+491712345678"],
      ["+49 (0)171 2345678", "DE", "+491712345678"],
      ["0049 171 2345678", "DE", "+491712345678"],
      ["030 12345678", "DE", "+493012345678"],
      ["(212) 555-2368", "US", "+12125552368"],
      ["212.555.2368", "US", "+12125552368"],
      ["+1 212 555 2368", "US", "+12125552368"],
      ["1 (212) 555-2368", "US", "+12125552368"],
      ["07911 123456", "GB", "+447911123456"],
      ["+44 7911 123456", "DE", "+447911123456"],
    ];
    for (const [text, country, number] of decided) expect(plainPhoneNumber(text, country)).toBe(number);
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

import fc from "fast-check";
import examples from "libphonenumber-js/examples.mobile.json";
import { getCountries, getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString } from "libphonenumber-js/max";
import { describe, expect, test } from "vitest";
import { warningIssue } from "../issues";
import { maskPhone } from "../mask";
import { arbitraryRowOf } from "../testing/arbitrary-source-rows";
import { normalised, type Normalised } from "./normalised";
import { normalisePhone } from "./phone";
import { normaliseText } from "./text";

// The library's own isValid() and getType(): the reference.
function libraryNormalisePhone(value: string | null | undefined, country: string): Normalised<string> {
  const text = normaliseText(value);
  if (text === undefined) return normalised<string>(undefined);
  const region = country.toUpperCase();
  const defaultCountry = isSupportedCountry(region) ? region : undefined;
  const phone = parsePhoneNumberFromString(text, defaultCountry === undefined ? {} : { defaultCountry });
  if (phone?.isValid()) {
    const type = phone.getType();
    if (type === "MOBILE" || type === "FIXED_LINE_OR_MOBILE") return normalised(phone.number);
    return normalised<string>(undefined, warningIssue("mobile_phone_number", "invalid_phone", "is not a mobile number", maskPhone(text)));
  }
  const international = /^\s*(\+|00)/.test(text) || defaultCountry === undefined;
  const reason = international ? "is not a valid phone number" : `is not a valid phone number for ${region}`;
  return normalised<string>(undefined, warningIssue("mobile_phone_number", "invalid_phone", reason, maskPhone(text)));
}

const countries = getCountries();
const country = fc.oneof(fc.constantFrom(...countries), fc.constantFrom("de", "us", "XX", "", "001"));

// Example mobiles of every country with some digits changed: valid, invalid and other countries' numbers all come up.
const exampleNumber = fc
  .tuple(
    fc.constantFrom(...countries),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 9 })), { maxLength: 3 }),
    fc.constantFrom("national", "international", "idd"),
  )
  .map(([exampleCountry, changes, form]) => {
    const digits = (examples as Record<string, string>)[exampleCountry]?.split("") ?? ["1", "2", "3"];
    for (const [at, digit] of changes) digits[at % digits.length] = String(digit);
    const national = digits.join("");
    const callingCode = getCountryCallingCode(exampleCountry);
    return form === "national" ? national : form === "international" ? `+${callingCode} ${national}` : `00${callingCode}${national}`;
  });

const typedNumber = fc
  .tuple(fc.constantFrom("", "+", "+1 ", "+49 ", "+44", "00", "0", "(0", "1 (", "+7 ", "+39 0", "+262"), fc.stringMatching(/^[0-9 ()./-]{0,18}$/))
  .map(([prefix, digits]) => prefix + digits);

const phoneText = fc.oneof(
  exampleNumber,
  exampleNumber,
  typedNumber,
  arbitraryRowOf.customers.map((row) => row.phone),
  fc.string(),
);

describe("normalisePhone decides as the library's own isValid() and getType()", () => {
  test("for numbers of every country, typed in many ways", () => {
    fc.assert(
      fc.property(phoneText, country, (value, region) => {
        const result = normalisePhone(value, region);
        expect(result).toStrictEqual(libraryNormalisePhone(value, region));
        expect(JSON.stringify(result)).toBe(JSON.stringify(libraryNormalisePhone(value, region)));
      }),
      { numRuns: 6000 },
    );
  });

  test("leaves the stack trace limit as it was", () => {
    const limit = Error.stackTraceLimit;
    normalisePhone("n/a", "DE");
    normalisePhone("0171 2345678", "DE");
    expect(Error.stackTraceLimit).toBe(limit);
  });
});

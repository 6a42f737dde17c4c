import { isSupportedCountry, parsePhoneNumberFromString, type PhoneNumber } from "libphonenumber-js/max";
import { warningIssue } from "../issues";
import { maskPhone } from "../mask";
import { normalised, type Normalised } from "./normalised";
import { isValidNationalNumber, phonePlan } from "./phone-plans";
import { plainPhoneNumber } from "./plain-phone";
import { normaliseText } from "./text";

const field = "mobile_phone_number";

/**
 * A phone as typed at the front desk → E.164 `+digits`, read in the location's country unless it carries its own
 * (+… or 00…). The full metadata set is used so that validity means a real number range, not only a plausible length.
 */
export function normalisePhone(value: string | null | undefined, country: string): Normalised<string> {
  const text = normaliseText(value);
  if (text === undefined) return normalised<string>(undefined);
  const region = country.toUpperCase();
  const defaultCountry = isSupportedCountry(region) ? region : undefined;
  const plain = defaultCountry === undefined ? undefined : plainPhoneNumber(text, defaultCountry);
  if (plain !== undefined) return normalised(plain);
  const phone = withoutStackTraces(() => parsePhoneNumberFromString(text, defaultCountry === undefined ? {} : { defaultCountry }));
  if (phone !== undefined && isValidNumber(phone)) return normalised(phone.number);
  const international = /^\s*(\+|00)/.test(text) || defaultCountry === undefined;
  const reason = international ? "is not a valid phone number" : `is not a valid phone number for ${region}`;
  return normalised<string>(undefined, warningIssue(field, "invalid_phone", reason, maskPhone(text)));
}

// The library throws and catches a ParseError for every unusable number; capturing its stack was most of the cost of
// such a number. Nothing else runs meanwhile (it is synchronous), and its errors are caught inside it.
function withoutStackTraces<T>(run: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return run();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * PhoneNumber.isValid() (isValid.js with getNumberType.js) step for step, with each pattern compiled once: the number
 * matches its numbering plan's national pattern and the pattern of at least one number type.
 */
function isValidNumber(phone: PhoneNumber): boolean {
  return isValidNationalNumber(phone.nationalNumber || "", phonePlan(phone.country || phone.countryCallingCode));
}

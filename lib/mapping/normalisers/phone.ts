import { isSupportedCountry, parsePhoneNumberFromString, type PhoneNumber } from "libphonenumber-js/max";
import { warningIssue } from "../issues";
import { maskPhone } from "../mask";
import { normalised, type Normalised } from "./normalised";
import { numberKindOf, phonePlan, type NumberKind } from "./phone-plans";
import { plainPhoneNumber } from "./plain-phone";
import { normaliseText } from "./text";

const field = "mobile_phone_number";

/**
 * A phone as typed at the front desk → E.164 `+digits`, read in the location's country unless it carries its own
 * (+… or 00…). The full metadata set is used so that validity means a real number range, not only a plausible length,
 * and so that the number's type is known: the upstream texts this number, so only a mobile (or a number its plan
 * cannot tell from one, as in the US) is kept; a landline, toll-free or premium number is dropped.
 */
export function normalisePhone(value: string | null | undefined, country: string): Normalised<string> {
  const text = normaliseText(value);
  if (text === undefined) return normalised<string>(undefined);
  const region = country.toUpperCase();
  const defaultCountry = isSupportedCountry(region) ? region : undefined;
  const plain = defaultCountry === undefined ? undefined : plainPhoneNumber(text, defaultCountry);
  if (plain !== undefined) return mobileOnly(plain.number, plain.kind, text);
  const phone = withoutStackTraces(() => parsePhoneNumberFromString(text, defaultCountry === undefined ? {} : { defaultCountry }));
  const kind = phone === undefined ? undefined : kindOf(phone);
  if (phone !== undefined && kind !== undefined) return mobileOnly(phone.number, kind, text);
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

function mobileOnly(number: string, kind: NumberKind, text: string): Normalised<string> {
  if (kind === "mobile") return normalised(number);
  return normalised<string>(undefined, warningIssue(field, "invalid_phone", "is not a mobile number", maskPhone(text)));
}

/**
 * PhoneNumber.isValid() and getType() (isValid.js, getNumberType.js) step for step, with each pattern compiled once:
 * undefined when the number is not valid.
 */
function kindOf(phone: PhoneNumber): NumberKind | undefined {
  return numberKindOf(phone.nationalNumber || "", phonePlan(phone.country || phone.countryCallingCode));
}

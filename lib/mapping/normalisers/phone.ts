import { isSupportedCountry, parsePhoneNumberFromString } from "libphonenumber-js/max";
import { warningIssue } from "../issues";
import { maskPhone } from "../mask";
import { normalised, type Normalised } from "./normalised";
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
  const phone = parsePhoneNumberFromString(text, defaultCountry === undefined ? {} : { defaultCountry });
  if (phone?.isValid()) return normalised(phone.number);
  const international = /^\s*(\+|00)/.test(text) || defaultCountry === undefined;
  const reason = international ? "is not a valid phone number" : `is not a valid phone number for ${region}`;
  return normalised<string>(undefined, warningIssue(field, "invalid_phone", reason, maskPhone(text)));
}

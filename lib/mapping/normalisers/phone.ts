import { isSupportedCountry, Metadata, parsePhoneNumberFromString, type PhoneNumber } from "libphonenumber-js/max";
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

// The parts of libphonenumber's metadata that PhoneNumber.isValid() reads (metadata.js, NumberingPlan and Type).
interface NumberType {
  pattern(): string;
  possibleLengths(): number[] | undefined;
}

interface NumberingPlan {
  nationalNumberPattern(): string;
  hasTypes(): boolean;
  type(name: string): NumberType | undefined;
}

const metadata = new Metadata() as unknown as { selectNumberingPlan(countryOrCallingCode: string): void; numberingPlan: NumberingPlan };

// In getNumberType's order: a number of any of these types is valid.
const numberTypes = ["FIXED_LINE", "MOBILE", "PREMIUM_RATE", "TOLL_FREE", "SHARED_COST", "VOIP", "PERSONAL_NUMBER", "PAGER", "UAN", "VOICEMAIL"];

// The library compiles `^(?:pattern)$` on every test; a country's patterns run to a thousand characters.
const compiledPatterns = new Map<string, RegExp>();

function matchesEntirely(text: string, pattern: string): boolean {
  let expression = compiledPatterns.get(pattern);
  if (expression === undefined) {
    expression = new RegExp(`^(?:${pattern})$`);
    compiledPatterns.set(pattern, expression);
  }
  return expression.test(text);
}

function isNumberOfType(nationalNumber: string, type: NumberType | undefined): boolean {
  if (type === undefined || !type.pattern()) return false;
  const lengths = type.possibleLengths();
  if (lengths && !lengths.includes(nationalNumber.length)) return false;
  return matchesEntirely(nationalNumber, type.pattern());
}

/**
 * PhoneNumber.isValid() (isValid.js with getNumberType.js) step for step, with each pattern compiled once: the number
 * matches its numbering plan's national pattern and the pattern of at least one number type.
 */
function isValidNumber(phone: PhoneNumber): boolean {
  metadata.selectNumberingPlan(phone.country || phone.countryCallingCode);
  const plan = metadata.numberingPlan;
  const nationalNumber = phone.nationalNumber || "";
  if (!matchesEntirely(nationalNumber, plan.nationalNumberPattern())) return false;
  if (!plan.hasTypes()) return true;
  return numberTypes.some((name) => isNumberOfType(nationalNumber, plan.type(name)));
}

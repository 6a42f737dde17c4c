import { countriesOfCallingCode, hasCallingCode, hasNumberType, numberKindOf, phonePlan, type NumberKind, type PhonePlan } from "./phone-plans";

// The common phone as typed at a front desk: ASCII digits and the separators people type between them, after at most
// a leading +. The library reads nothing else from such text (no extension, no tel: URI, no letters).
const plainPhoneText = /^\+?[0-9 ()./-]*$/;

// Steps of the library's parse (parse.js and its helpers, v1.13) for plain text, on the plans of phone-plans.ts.
// Each step does what the library's does for such text, or gives up (undefined), and the library then parses it.

/** How the number is read: its calling code, the digits after it, and its country where the text does not name one. */
interface Reading {
  callingCode: string;
  number: string;
  country: string | undefined;
}

/** extractCountryCallingCode for `+digits`: the first known code of one, two or three digits. */
function splitCallingCode(digits: string): Reading | undefined {
  if (digits[0] === "0") return undefined;
  for (let length = 1; length <= 3 && length <= digits.length; length++) {
    const callingCode = digits.slice(0, length);
    if (hasCallingCode(callingCode)) return { callingCode, number: digits.slice(length), country: undefined };
  }
  return undefined;
}

/** stripIddPrefix: the digits after the country's international prefix ("00" in DE), unless a 0 follows it. */
function withoutIddPrefix(digits: string, plan: PhonePlan): string | undefined {
  const match = plan.iddPrefix?.exec(digits);
  // A prefix that matches nothing leaves the number as it was: not international.
  if (!match || match[0] === "") return undefined;
  const rest = digits.slice(match[0].length);
  return rest === "" || rest[0] === "0" ? undefined : rest;
}

/** getCountryByCallingCode: the calling code's one country, or the first whose leading digits or number types fit. */
function countryOf(callingCode: string, nationalNumber: string): string | undefined {
  const countries = countriesOfCallingCode(callingCode);
  if (countries === undefined) return undefined;
  if (countries.length === 1) return countries[0];
  return countries.find((country) => {
    const plan = phonePlan(country);
    return plan.leadingDigits ? plan.leadingDigits.test(nationalNumber) : hasNumberType(nationalNumber, plan);
  });
}

// checkNumberLength without a type: TOO_SHORT or INVALID_LENGTH.
function hasImpossibleLength(nationalNumber: string, lengths: number[] | undefined): boolean {
  if (!lengths) return false;
  const length = nationalNumber.length;
  return length < lengths[0]! || (length <= lengths[lengths.length - 1]! && !lengths.includes(length));
}

/**
 * extractNationalNumber: the number without its national prefix ("0" in DE), unless the plan's patterns or lengths
 * say the prefix was part of the number. Undefined where the prefix carries groups (carrier codes, transform rules).
 */
function nationalNumberOf(number: string, plan: PhonePlan): string | undefined {
  const match = plan.nationalPrefix?.exec(number);
  if (!match) return number;
  if (match.length > 1 && match[match.length - 1]) return undefined;
  const nationalNumber = number.slice(match[0].length);
  if (nationalNumber === number) return number;
  if (plan.nationalNumber.test(number) && !plan.nationalNumber.test(nationalNumber)) return number;
  if (plan.possibleLengths) {
    const country = countryOf(plan.callingCode, nationalNumber);
    const lengths = country === undefined ? plan.possibleLengths : phonePlan(country).possibleLengths;
    if (hasImpossibleLength(nationalNumber, lengths)) return number;
  }
  return nationalNumber;
}

/**
 * extractCountryCallingCode: +digits and the international prefix name their calling code; other digits are national,
 * unless they start with the country's own code and only the reading without it fits (US "1 212 555 0123").
 */
function readingOf(text: string, digits: string, defaultCountry: string): Reading | undefined {
  const home = phonePlan(defaultCountry);
  const international = text[0] === "+" ? digits : withoutIddPrefix(digits, home);
  if (international !== undefined) return splitCallingCode(international);
  const national = { callingCode: home.callingCode, number: digits, country: defaultCountry };
  if (!digits.startsWith(home.callingCode)) return national;
  // extractCountryCallingCodeFromInternationalNumberWithoutPlusSign.
  const shorter = digits.slice(home.callingCode.length);
  const shorterNational = nationalNumberOf(shorter, home);
  const whole = nationalNumberOf(digits, home);
  if (shorterNational === undefined || whole === undefined) return undefined;
  const fitsOnlyShorter = !home.nationalNumber.test(whole) && home.nationalNumber.test(shorterNational);
  const tooLong = home.possibleLengths !== undefined && whole.length > home.possibleLengths[home.possibleLengths.length - 1]!;
  return fitsOnlyShorter || tooLong ? { callingCode: home.callingCode, number: shorter, country: undefined } : national;
}

/** A valid number: E.164, and whether it is a mobile. */
export interface PlainPhone {
  number: string;
  kind: NumberKind;
}

/**
 * The E.164 number the library finds valid in plain text, read in `defaultCountry` unless it carries its own calling
 * code, with its kind; undefined when the text is not plain, the number not valid, or a step is one this does not
 * repeat: the library then decides.
 */
export function plainPhoneNumber(text: string, defaultCountry: string): PlainPhone | undefined {
  // Longer text the library refuses outright (MAX_INPUT_STRING_LENGTH).
  if (text.length > 250 || !plainPhoneText.test(text)) return undefined;
  const digits = text.replace(/[^0-9]/g, "");
  // Fewer than three digits: the library's viability check decides.
  if (digits.length < 3) return undefined;
  const reading = readingOf(text, digits, defaultCountry);
  if (reading === undefined || reading.number === "") return undefined;
  const { callingCode, number } = reading;
  const nationalNumber = nationalNumberOf(number, phonePlan(reading.country ?? callingCode));
  if (nationalNumber === undefined || nationalNumber.length < 2 || nationalNumber.length > 17) return undefined;
  const country = countryOf(callingCode, nationalNumber) ?? reading.country;
  const kind = numberKindOf(nationalNumber, phonePlan(country ?? callingCode));
  return kind === undefined ? undefined : { number: `+${callingCode}${nationalNumber}`, kind };
}

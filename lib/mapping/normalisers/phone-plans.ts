import { Metadata } from "libphonenumber-js/max";

// libphonenumber-js (1.13) reads its metadata through short-lived objects and compiles `^(?:pattern)$` on every test;
// a country's patterns run to a thousand characters. Here each numbering plan's rules are read once, patterns compiled
// once, for the steps of phone.ts and plain-phone.ts that repeat the library's.

// The parts of the library's metadata classes (metadata.js: Metadata, NumberingPlan, Type) these steps read.
interface NumberType {
  pattern(): string;
  possibleLengths(): number[] | undefined;
}

interface NumberingPlan {
  callingCode(): string;
  IDDPrefix(): string | undefined;
  nationalNumberPattern(): string;
  possibleLengths(): number[] | undefined;
  nationalPrefixForParsing(): string | undefined;
  leadingDigits(): string | undefined;
  hasTypes(): boolean;
  type(name: string): NumberType | undefined;
}

interface LibraryMetadata {
  selectNumberingPlan(countryOrCallingCode: string): void;
  numberingPlan: NumberingPlan;
  hasCallingCode(callingCode: string): boolean;
  getCountryCodesForCallingCode(callingCode: string): string[] | undefined;
}

const metadata = new Metadata() as unknown as LibraryMetadata;

// In getNumberType's order: a number of any of these types is valid.
const numberTypes = ["FIXED_LINE", "MOBILE", "PREMIUM_RATE", "TOLL_FREE", "SHARED_COST", "VOIP", "PERSONAL_NUMBER", "PAGER", "UAN", "VOICEMAIL"];

interface TypeRule {
  pattern: RegExp;
  possibleLengths: number[] | undefined;
}

/** One numbering plan (a country's, or a calling code's main country's) as the parsing and validity steps read it. */
export interface PhonePlan {
  callingCode: string;
  /** `^(?:IDD prefix)`: what the library's search(new RegExp(IDDPrefix)) === 0 finds. */
  iddPrefix: RegExp | undefined;
  /** `^(?:national prefix for parsing)`. */
  nationalPrefix: RegExp | undefined;
  nationalNumber: RegExp;
  possibleLengths: number[] | undefined;
  /** `^(?:leading digits)`: what search(leadingDigits) === 0 finds. */
  leadingDigits: RegExp | undefined;
  hasTypes: boolean;
  /** The types with a pattern, in numberTypes' order. */
  types: TypeRule[];
  fixedLine: TypeRule | undefined;
  /** Undefined where the metadata left the mobile pattern out as the fixed-line one's duplicate (NANP countries). */
  mobile: TypeRule | undefined;
}

const startsWith = (pattern: string | undefined) => (pattern ? new RegExp(`^(?:${pattern})`) : undefined);

function readPlan(countryOrCallingCode: string): PhonePlan {
  metadata.selectNumberingPlan(countryOrCallingCode);
  const plan = metadata.numberingPlan;
  const types: TypeRule[] = [];
  const byName = new Map<string, TypeRule>();
  for (const name of numberTypes) {
    const type = plan.type(name);
    if (type === undefined || !type.pattern()) continue;
    const rule = { pattern: new RegExp(`^(?:${type.pattern()})$`), possibleLengths: type.possibleLengths() };
    types.push(rule);
    byName.set(name, rule);
  }
  return {
    callingCode: plan.callingCode(),
    iddPrefix: startsWith(plan.IDDPrefix()),
    nationalPrefix: startsWith(plan.nationalPrefixForParsing()),
    nationalNumber: new RegExp(`^(?:${plan.nationalNumberPattern()})$`),
    possibleLengths: plan.possibleLengths(),
    leadingDigits: startsWith(plan.leadingDigits()),
    hasTypes: plan.hasTypes(),
    types,
    fixedLine: byName.get("FIXED_LINE"),
    mobile: byName.get("MOBILE"),
  };
}

const plans = new Map<string, PhonePlan>();

/** The plan of a supported country ("DE") or a known calling code ("49", its main country's plan). */
export function phonePlan(countryOrCallingCode: string): PhonePlan {
  let plan = plans.get(countryOrCallingCode);
  if (plan === undefined) {
    plan = readPlan(countryOrCallingCode);
    plans.set(countryOrCallingCode, plan);
  }
  return plan;
}

export function hasCallingCode(callingCode: string): boolean {
  return Boolean(metadata.hasCallingCode(callingCode));
}

/** The countries sharing a calling code (the main one first); undefined for a non-geographic code. */
export function countriesOfCallingCode(callingCode: string): string[] | undefined {
  return metadata.getCountryCodesForCallingCode(callingCode);
}

// isNumberTypeEqualTo (getNumberType.js): the type's lengths, when it names some, then its pattern.
function isOfType(nationalNumber: string, type: TypeRule): boolean {
  if (type.possibleLengths && !type.possibleLengths.includes(nationalNumber.length)) return false;
  return type.pattern.test(nationalNumber);
}

/** getNumberType (getNumberType.js) is not undefined: the plan's pattern, then any type's. */
export function hasNumberType(nationalNumber: string, plan: PhonePlan): boolean {
  return plan.nationalNumber.test(nationalNumber) && plan.types.some((type) => isOfType(nationalNumber, type));
}

/** What a valid number is to the mapping: a mobile (getNumberType MOBILE or FIXED_LINE_OR_MOBILE), or another type. */
export type NumberKind = "mobile" | "other";

/**
 * PhoneNumber.isValid() (isValid.js) and, for a valid number, getNumberType (getNumberType.js) in one pass: undefined
 * when not valid. A fixed line is FIXED_LINE_OR_MOBILE where the plan has no mobile pattern of its own (NANP
 * countries cannot tell them apart) or the number fits both. A plan without types: valid on its pattern, of no type.
 */
export function numberKindOf(nationalNumber: string, plan: PhonePlan): NumberKind | undefined {
  if (!plan.nationalNumber.test(nationalNumber)) return undefined;
  if (plan.fixedLine && isOfType(nationalNumber, plan.fixedLine)) {
    return plan.mobile === undefined || isOfType(nationalNumber, plan.mobile) ? "mobile" : "other";
  }
  if (plan.mobile && isOfType(nationalNumber, plan.mobile)) return "mobile";
  if (!plan.hasTypes) return "other";
  return plan.types.some((type) => type !== plan.fixedLine && type !== plan.mobile && isOfType(nationalNumber, type)) ? "other" : undefined;
}

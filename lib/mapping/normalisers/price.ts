import { digitsAt } from "@/lib/upstream/wall-clock";
import { shownOriginal, warningIssue } from "../issues";
import { normalised, type Normalised } from "./normalised";

const field = "price_cents";
// Decimal currency as numeric columns print it: digits, optionally a point and more digits.
const decimalPattern = /^([+-]?)(\d+)(?:\.(\d+))?$/;

// Up to 13 whole digits, cents stay below 2^53 and a Number counts them exactly; beyond, BigInt does (Infinity when
// even that is past what a Number holds, which the caller refuses as too large).
function centsOf(whole: string, centDigits: string, roundUp: boolean): number {
  if (whole.length <= 13) return Number(whole) * 100 + Number(centDigits) + (roundUp ? 1 : 0);
  const cents = BigInt(whole) * 100n + BigInt(centDigits) + (roundUp ? 1n : 0n);
  return cents > BigInt(Number.MAX_SAFE_INTEGER) ? Number.POSITIVE_INFINITY : Number(cents);
}

// Cents of the common amount, up to 13 whole digits and at most two decimals ("25.00", "19.9", "120"), by char codes;
// undefined for any other text. The pattern below reads these to the same cents.
function plainCents(text: string): number | undefined {
  const length = text.length;
  const point = text[length - 3] === "." ? length - 3 : text[length - 2] === "." ? length - 2 : length;
  if (point <= 0 || point > 13) return undefined;
  const whole = digitsAt(text, 0, point);
  const fraction = point === length ? 0 : digitsAt(text, point + 1, length - point - 1);
  if (whole < 0 || fraction < 0) return undefined;
  return whole * 100 + (length - point === 2 ? fraction * 10 : fraction);
}

/**
 * Decimal currency text → whole cents, computed on the digits (never through a float, so "19.99" is 1999).
 * More than two decimals are rounded half up with a warning; negative, unreadable or too large → dropped with a warning.
 */
export function normalisePrice(value: string | null | undefined): Normalised<number> {
  if (typeof value !== "string") return normalised<number>(undefined);
  const text = value.trim();
  if (text === "") return normalised<number>(undefined);
  const plain = plainCents(text);
  if (plain !== undefined) return normalised(plain);
  const match = decimalPattern.exec(text);
  if (!match) return normalised<number>(undefined, warningIssue(field, "invalid_price", "is not a decimal amount like 25.00", shownOriginal(value)));
  const [, sign, whole = "", fraction = ""] = match;
  const centDigits = fraction.slice(0, 2).padEnd(2, "0");
  const roundUp = fraction.length > 2 && Number(fraction[2]) >= 5;
  const cents = centsOf(whole, centDigits, roundUp);
  if (sign === "-" && cents !== 0) return normalised<number>(undefined, warningIssue(field, "negative_price", "is negative", shownOriginal(value)));
  if (cents > Number.MAX_SAFE_INTEGER)
    return normalised<number>(undefined, warningIssue(field, "invalid_price", "is too large", shownOriginal(value)));
  const rounded = /[1-9]/.test(fraction.slice(2));
  if (!rounded) return normalised(cents);
  return normalised(cents, warningIssue(field, "rounded_price", "has more than two decimals; rounded to whole cents", shownOriginal(value)));
}

import { shownOriginal, warningIssue } from "../issues";
import { normalised, type Normalised } from "./normalised";

const field = "price_cents";
// Decimal currency as numeric columns print it: digits, optionally a point and more digits.
const decimalPattern = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/**
 * Decimal currency text → whole cents, computed on the digits (never through a float, so "19.99" is 1999).
 * More than two decimals are rounded half up with a warning; negative, unreadable or too large → dropped with a warning.
 */
export function normalisePrice(value: string | null | undefined): Normalised<number> {
  if (typeof value !== "string") return normalised<number>(undefined);
  const text = value.trim();
  if (text === "") return normalised<number>(undefined);
  const original = shownOriginal(value);
  const match = decimalPattern.exec(text);
  if (!match) return normalised<number>(undefined, warningIssue(field, "invalid_price", "is not a decimal amount like 25.00", original));
  const [, sign, whole = "", fraction = ""] = match;
  const centDigits = fraction.slice(0, 2).padEnd(2, "0");
  const roundUp = fraction.length > 2 && Number(fraction[2]) >= 5;
  const cents = BigInt(whole) * 100n + BigInt(centDigits) + (roundUp ? 1n : 0n);
  if (sign === "-" && cents !== 0n) return normalised<number>(undefined, warningIssue(field, "negative_price", "is negative", original));
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) return normalised<number>(undefined, warningIssue(field, "invalid_price", "is too large", original));
  const rounded = /[1-9]/.test(fraction.slice(2));
  if (!rounded) return normalised(Number(cents));
  return normalised(Number(cents), warningIssue(field, "rounded_price", "has more than two decimals; rounded to whole cents", original));
}

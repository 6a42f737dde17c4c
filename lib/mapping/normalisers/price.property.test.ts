import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { shownOriginal, warningIssue } from "../issues";
import { normalised, type Normalised } from "./normalised";
import { normalisePrice } from "./price";

// The implementation that counted every amount in BigInt, as it was: the reference.
const decimalPattern = /^([+-]?)(\d+)(?:\.(\d+))?$/;

function bigIntNormalisePrice(value: string | null | undefined): Normalised<number> {
  const field = "price_cents";
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

const amount = fc
  .tuple(
    fc.constantFrom("", "+", "-"),
    fc.stringMatching(/^[0-9]{1,22}$/),
    fc.option(fc.stringMatching(/^[0-9]{0,6}$/), { nil: undefined }),
    fc.constantFrom("", " "),
  )
  .map(([sign, whole, fraction, space]) => `${space}${sign}${whole}${fraction === undefined ? "" : `.${fraction}`}${space}`);
// Around the largest amount a Number holds exactly: 90071992547409.91 is 2^53 - 1 cents.
const nearLimit = fc
  .tuple(fc.bigInt({ min: 9_007_199_254_740_900n, max: 9_007_199_254_741_100n }), fc.constantFrom("", "4", "5", "49", "50"))
  .map(([cents, extra]) => `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}${extra}`);

const oddAmount = fc.constantFrom(null, undefined, "0", "-0", "-0.004", "-0.005", "00019.999", "9999999999999.99", "99999999999999.99");

describe("normalisePrice counts cents as the BigInt version did", () => {
  test("for amounts of up to 22 digits, signs, decimals and near misses", () => {
    fc.assert(
      fc.property(fc.oneof(amount, nearLimit, fc.string(), oddAmount), (value) => {
        expect(normalisePrice(value)).toStrictEqual(bigIntNormalisePrice(value));
      }),
      { numRuns: 5000 },
    );
  });
});

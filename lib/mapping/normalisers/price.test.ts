import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { normalisePrice } from "./price";

const warned = (value: number | undefined, code: string, reason: string, original: string) => ({
  value,
  issues: [{ severity: "warning", field: "price_cents", code, reason, original }],
});

describe("normalisePrice", () => {
  test("turns decimal text into exact cents", () => {
    expect(normalisePrice("25.00")).toEqual({ value: 2500, issues: [] });
    expect(normalisePrice("19.9").value).toBe(1990);
    expect(normalisePrice("0.29").value).toBe(29);
    expect(normalisePrice("1.15").value).toBe(115);
    expect(normalisePrice(" 7 ").value).toBe(700);
    expect(normalisePrice("12.000").value).toBe(1200);
    expect(normalisePrice("-0.00").value).toBe(0);
  });

  test("is exact where floating point is not (0.29 * 100 is 28.999…)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 13n }), (cents) => {
        const text = `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`;
        expect(normalisePrice(text).value).toBe(Number(cents));
      }),
    );
  });

  test("rounds more than two decimals half up, with a warning", () => {
    const reason = "has more than two decimals; rounded to whole cents";
    expect(normalisePrice("19.995")).toEqual(warned(2000, "rounded_price", reason, "19.995"));
    expect(normalisePrice("19.994")).toEqual(warned(1999, "rounded_price", reason, "19.994"));
  });

  test("drops negative, unreadable and too large amounts with a warning", () => {
    expect(normalisePrice("-5.00")).toEqual(warned(undefined, "negative_price", "is negative", "-5.00"));
    for (const text of ["19,90", "€20", "1e3", "NaN", "12.", ".5", "1 000"]) {
      expect(normalisePrice(text)).toEqual(warned(undefined, "invalid_price", "is not a decimal amount like 25.00", text));
    }
    expect(normalisePrice("90071992547409.92")).toEqual(warned(undefined, "invalid_price", "is too large", "90071992547409.92"));
  });

  test("omits an empty value without an issue", () => {
    expect(normalisePrice(null)).toEqual({ value: undefined, issues: [] });
    expect(normalisePrice(" ")).toEqual({ value: undefined, issues: [] });
  });
});

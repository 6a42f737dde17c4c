import { describe, expect, test } from "vitest";
import { normaliseInteger } from "./integer";

describe("normaliseInteger", () => {
  test("keeps whole numbers, also those that arrive as text", () => {
    expect(normaliseInteger(3, "list_order")).toEqual({ value: 3, issues: [] });
    expect(normaliseInteger(" -2 ", "list_order")).toEqual({ value: -2, issues: [] });
  });

  test("omits a missing value without an issue", () => {
    expect(normaliseInteger(null, "list_order")).toEqual({ value: undefined, issues: [] });
    expect(normaliseInteger(" ", "year")).toEqual({ value: undefined, issues: [] });
  });

  test.each([
    [1.5, "1.5"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    [2 ** 60, String(2 ** 60)],
    ["12a", "12a"],
  ])("drops %s with a warning", (value, original) => {
    expect(normaliseInteger(value, "year")).toEqual({
      value: undefined,
      issues: [{ severity: "warning", field: "year", code: "invalid_integer", reason: "is not a whole number", original }],
    });
  });
});

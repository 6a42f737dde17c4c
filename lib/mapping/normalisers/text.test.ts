import { describe, expect, test } from "vitest";
import { normaliseClearableText, normaliseText } from "./text";

describe("normaliseText", () => {
  test("trims and collapses every run of whitespace to one space", () => {
    expect(normaliseText("  Anna \t Maria\r\nSmith ")).toBe("Anna Maria Smith");
  });

  test("omits empty and whitespace-only values", () => {
    expect(normaliseText(null)).toBeUndefined();
    expect(normaliseText("")).toBeUndefined();
    expect(normaliseText(" \n\t ")).toBeUndefined();
  });
});

describe("normaliseClearableText", () => {
  test("normalises text like normaliseText", () => {
    expect(normaliseClearableText("  Anna \t Maria\r\nSmith ")).toBe("Anna Maria Smith");
  });

  test("sends missing, empty and whitespace-only values as an empty string, so the upstream clears the field", () => {
    expect(normaliseClearableText(null)).toBe("");
    expect(normaliseClearableText(undefined)).toBe("");
    expect(normaliseClearableText("")).toBe("");
    expect(normaliseClearableText(" \n\t ")).toBe("");
  });
});

import { describe, expect, test } from "vitest";
import { normaliseText } from "./text";

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

import { describe, expect, test } from "vitest";
import { normaliseGender } from "./gender";

describe("normaliseGender", () => {
  test.each(["F", "female", "Frau", "w", "Weiblich", "Mrs.", "woman"])("maps %s to female", (value) => {
    expect(normaliseGender(value)).toEqual({ value: "female", issues: [] });
  });

  test.each(["M", "Male", "Herr", "männlich", "MÄNNLICH", "Mr."])("maps %s to male", (value) => {
    expect(normaliseGender(value)).toEqual({ value: "male", issues: [] });
  });

  test.each(["d", "divers", "Diverse", "non-binary", "Non Binary", "nonbinary", "X"])("maps %s to diverse", (value) => {
    expect(normaliseGender(value)).toEqual({ value: "diverse", issues: [] });
  });

  test("lower-cases another single word", () => {
    expect(normaliseGender(" Agender ")).toEqual({ value: "agender", issues: [] });
  });

  test.each([null, "", "  ", "unknown", "Unbekannt", "n/a", "keine Angabe"])("omits %s without an issue", (value) => {
    expect(normaliseGender(value)).toEqual({ value: undefined, issues: [] });
  });

  test.each(["m/w", "two spirit", "?", "männl"])("drops %s with a warning", (value) => {
    expect(normaliseGender(value)).toEqual({
      value: undefined,
      issues: [{ severity: "warning", field: "gender", code: "invalid_gender", reason: "is not a single word of letters a–z", original: value }],
    });
  });
});

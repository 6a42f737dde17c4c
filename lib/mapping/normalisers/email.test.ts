import { describe, expect, test } from "vitest";
import { normaliseEmail } from "./email";

describe("normaliseEmail", () => {
  test("trims and lower-cases", () => {
    expect(normaliseEmail("  Anna.Smith@Example.COM ")).toEqual({ value: "anna.smith@example.com", issues: [] });
  });

  test.each(["anna.smith@example", "anna smith@example.com", "anna@@example.com", "anna.example.com"])(
    "drops %s with a warning and shows only its first two characters",
    (email) => {
      expect(normaliseEmail(email)).toEqual({
        value: undefined,
        issues: [
          {
            severity: "warning",
            field: "email",
            code: "invalid_email",
            reason: "is not a valid e-mail address",
            original: email.includes("@") ? "an***@" : "an***",
          },
        ],
      });
    },
  );

  test("omits an empty value without an issue", () => {
    expect(normaliseEmail(null)).toEqual({ value: undefined, issues: [] });
    expect(normaliseEmail(" ")).toEqual({ value: undefined, issues: [] });
  });
});

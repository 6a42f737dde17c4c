import { describe, expect, test } from "vitest";
import { normalisePhone } from "./phone";

const invalid = (reason: string, original: string) => ({
  value: undefined,
  issues: [{ severity: "warning", field: "mobile_phone_number", code: "invalid_phone", reason, original }],
});

describe("normalisePhone", () => {
  test("reads local formats in the location's country and writes E.164", () => {
    expect(normalisePhone("0171 2345678", "DE")).toEqual({ value: "+491712345678", issues: [] });
    expect(normalisePhone("(0171) 234-56 78", "DE").value).toBe("+491712345678");
    expect(normalisePhone("(212) 555-2368", "US").value).toBe("+12125552368");
    expect(normalisePhone("07911 123456", "gb").value).toBe("+447911123456");
  });

  test("keeps a number's own country code over the location's", () => {
    expect(normalisePhone("+44 7911 123456", "DE").value).toBe("+447911123456");
    expect(normalisePhone("0044 7911 123456", "DE").value).toBe("+447911123456");
  });

  test("drops an invalid number with a warning that names the country, masking all but the last two digits", () => {
    expect(normalisePhone("0171 23", "DE")).toEqual(invalid("is not a valid phone number for DE", "**** 23"));
    expect(normalisePhone("n/a", "DE")).toEqual(invalid("is not a valid phone number for DE", "*/*"));
  });

  test("names no country for a number written internationally", () => {
    expect(normalisePhone("+49 000 1234567", "US")).toEqual(invalid("is not a valid phone number", "+** *** *****67"));
  });

  test("omits an empty value without an issue", () => {
    expect(normalisePhone(null, "DE")).toEqual({ value: undefined, issues: [] });
    expect(normalisePhone("  ", "DE")).toEqual({ value: undefined, issues: [] });
  });
});

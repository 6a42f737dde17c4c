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

  test("drops a valid number that is not a mobile: the upstream sends text messages to it", () => {
    expect(normalisePhone("030 12345678", "DE")).toEqual(invalid("is not a mobile number", "*** ******78"));
    expect(normalisePhone("0800 1234567", "DE")).toEqual(invalid("is not a mobile number", "**** *****67"));
    expect(normalisePhone("0900 1234567", "DE")).toEqual(invalid("is not a mobile number", "**** *****67"));
    expect(normalisePhone("+44 20 7946 0958", "DE")).toEqual(invalid("is not a mobile number", "+** ** **** **58"));
    // Not plain text: the library path decides the same.
    expect(normalisePhone("tel: 030 12345678", "DE")).toEqual(invalid("is not a mobile number", "**** *** ******78"));
  });

  test("keeps a number whose plan cannot tell a mobile from a landline (NANP)", () => {
    expect(normalisePhone("(212) 555-2368", "US").value).toBe("+12125552368");
    expect(normalisePhone("+1 416 555 0123", "DE").value).toBe("+14165550123");
  });

  test("names no country for a number written internationally", () => {
    expect(normalisePhone("+49 000 1234567", "US")).toEqual(invalid("is not a valid phone number", "+** *** *****67"));
  });

  test("omits an empty value without an issue", () => {
    expect(normalisePhone(null, "DE")).toEqual({ value: undefined, issues: [] });
    expect(normalisePhone("  ", "DE")).toEqual({ value: undefined, issues: [] });
  });
});

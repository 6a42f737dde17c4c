import { describe, expect, test } from "vitest";
import { normaliseBirthdate } from "./birthdate";

// 23:30 UTC on 2026-06-14 is already 2026-06-15 in Berlin.
const today = { now: new Date("2026-06-14T23:30:00Z"), timeZone: "Europe/Berlin" };

const dropped = (reason: string, original: string) => ({
  value: undefined,
  issues: [{ severity: "warning", field: "birthdate", code: "invalid_birthdate", reason, original }],
});

describe("normaliseBirthdate", () => {
  test("keeps a real calendar date from 1900 to today at the location", () => {
    expect(normaliseBirthdate(" 1985-02-28 ", today)).toEqual({ value: "1985-02-28", issues: [] });
    expect(normaliseBirthdate("1900-01-01", today).value).toBe("1900-01-01");
    expect(normaliseBirthdate("2026-06-15", today).value).toBe("2026-06-15");
    expect(normaliseBirthdate("2024-02-29", today).value).toBe("2024-02-29");
  });

  test("drops other forms, impossible dates, dates before 1900 and in the future, masking the digits", () => {
    expect(normaliseBirthdate("28.02.1985", today)).toEqual(dropped("is not a date YYYY-MM-DD", "**.**.****"));
    expect(normaliseBirthdate("1985-02-30", today)).toEqual(dropped("is not a real calendar date", "****-**-**"));
    expect(normaliseBirthdate("2023-02-29", today)).toEqual(dropped("is not a real calendar date", "****-**-**"));
    expect(normaliseBirthdate("1899-12-31", today)).toEqual(dropped("is before 1900", "****-**-**"));
    expect(normaliseBirthdate("2026-06-16", today)).toEqual(dropped("is in the future", "****-**-**"));
  });

  test("omits an empty value without an issue", () => {
    expect(normaliseBirthdate(null, today)).toEqual({ value: undefined, issues: [] });
    expect(normaliseBirthdate("", today)).toEqual({ value: undefined, issues: [] });
  });
});

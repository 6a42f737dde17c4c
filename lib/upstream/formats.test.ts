import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  describeDateTimeProblem,
  formatLocalDate,
  formatUpstreamDateTime,
  InvalidDateTimeError,
  isLocalDate,
  LocalDate,
  MobilePhoneNumber,
  parseUpstreamDateTime,
  UpstreamDateTime,
} from "./formats";

const utc = (iso: string) => new Date(iso);

describe("formatUpstreamDateTime", () => {
  test("writes the local wall-clock time, a literal Z, then the offset at that instant", () => {
    expect(formatUpstreamDateTime(utc("2026-03-29T07:30:00Z"), "Europe/Berlin")).toBe("2026-03-29T09:30:00Z+02:00");
    expect(formatUpstreamDateTime(utc("2026-01-15T17:05:09Z"), "America/New_York")).toBe("2026-01-15T12:05:09Z-05:00");
    expect(formatUpstreamDateTime(utc("2026-01-15T17:05:09Z"), "UTC")).toBe("2026-01-15T17:05:09Z+00:00");
    expect(formatUpstreamDateTime(utc("2026-01-15T17:05:09Z"), "Asia/Kolkata")).toBe("2026-01-15T22:35:09Z+05:30");
  });

  test("writes plain RFC 3339 when the environment asks for it", () => {
    expect(formatUpstreamDateTime(utc("2026-03-29T07:30:00Z"), "Europe/Berlin", "rfc3339")).toBe("2026-03-29T09:30:00+02:00");
  });

  test("drops milliseconds (the form has whole seconds)", () => {
    expect(formatUpstreamDateTime(utc("2026-06-01T10:00:00.999Z"), "UTC")).toBe("2026-06-01T10:00:00Z+00:00");
  });

  test("is well defined across a spring-forward gap: 01:59:59 +01:00 is followed by 03:00:00 +02:00", () => {
    // Europe/Berlin skips 02:00–03:00 local on 2026-03-29 (01:00 UTC).
    expect(formatUpstreamDateTime(utc("2026-03-29T00:59:59Z"), "Europe/Berlin")).toBe("2026-03-29T01:59:59Z+01:00");
    expect(formatUpstreamDateTime(utc("2026-03-29T01:00:00Z"), "Europe/Berlin")).toBe("2026-03-29T03:00:00Z+02:00");
  });

  test("tells the two instants of an autumn overlap apart by their offset", () => {
    // Europe/Berlin shows 02:30 twice on 2026-10-25: first at +02:00, then at +01:00.
    const first = formatUpstreamDateTime(utc("2026-10-25T00:30:00Z"), "Europe/Berlin");
    const second = formatUpstreamDateTime(utc("2026-10-25T01:30:00Z"), "Europe/Berlin");
    expect(first).toBe("2026-10-25T02:30:00Z+02:00");
    expect(second).toBe("2026-10-25T02:30:00Z+01:00");
    expect(parseUpstreamDateTime(first).toISOString()).toBe("2026-10-25T00:30:00.000Z");
    expect(parseUpstreamDateTime(second).toISOString()).toBe("2026-10-25T01:30:00.000Z");
  });

  test("handles the southern hemisphere's opposite DST season", () => {
    expect(formatUpstreamDateTime(utc("2026-01-10T00:00:00Z"), "Australia/Sydney")).toBe("2026-01-10T11:00:00Z+11:00");
    expect(formatUpstreamDateTime(utc("2026-07-10T00:00:00Z"), "Australia/Sydney")).toBe("2026-07-10T10:00:00Z+10:00");
  });

  test("refuses an unknown time zone and an invalid instant", () => {
    expect(() => formatUpstreamDateTime(utc("2026-01-01T00:00:00Z"), "Mars/Olympus")).toThrow(RangeError);
    expect(() => formatUpstreamDateTime(new Date(Number.NaN), "UTC")).toThrow(RangeError);
  });

  test("round-trips every whole-second instant in every sample zone, in both styles", () => {
    const zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns", "UTC"];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1970, 0, 1) / 1000, max: Date.UTC(2100, 0, 1) / 1000 }),
        fc.constantFrom(...zones),
        fc.constantFrom("spec" as const, "rfc3339" as const),
        (seconds, zone, style) => {
          const text = formatUpstreamDateTime(seconds * 1000, zone, style);
          expect(describeDateTimeProblem(text, style)).toBeUndefined();
          expect(parseUpstreamDateTime(text, style).getTime()).toBe(seconds * 1000);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("parseUpstreamDateTime", () => {
  test("reads the spec form as the instant it names", () => {
    expect(parseUpstreamDateTime("2026-03-29T09:30:00Z+02:00").toISOString()).toBe("2026-03-29T07:30:00.000Z");
    expect(parseUpstreamDateTime("2026-03-29T09:30:00Z-03:30").toISOString()).toBe("2026-03-29T13:00:00.000Z");
  });

  test.each([
    ["plain RFC 3339 in spec style", "2026-03-29T09:30:00+02:00"],
    ["a bare Z", "2026-03-29T09:30:00Z"],
    ["fractional seconds", "2026-03-29T09:30:00.5Z+02:00"],
    ["an offset without a colon", "2026-03-29T09:30:00Z+0200"],
    ["an hour of 24", "2026-03-29T24:00:00Z+02:00"],
    ["a minute of 60", "2026-03-29T09:60:00Z+02:00"],
    ["a leap second", "2026-03-29T09:30:60Z+02:00"],
    ["February 30th", "2026-02-30T09:30:00Z+02:00"],
    ["an offset of +19:00", "2026-03-29T09:30:00Z+19:00"],
    ["offset minutes of 60", "2026-03-29T09:30:00Z+02:60"],
    ["a space instead of T", "2026-03-29 09:30:00Z+02:00"],
    ["trailing text", "2026-03-29T09:30:00Z+02:00x"],
  ])("rejects %s", (_, value) => {
    expect(() => parseUpstreamDateTime(value)).toThrow(InvalidDateTimeError);
    expect(UpstreamDateTime.safeParse(value).success).toBe(false);
  });

  test("rejects the spec form when the environment uses RFC 3339", () => {
    expect(() => parseUpstreamDateTime("2026-03-29T09:30:00Z+02:00", "rfc3339")).toThrow(InvalidDateTimeError);
    expect(parseUpstreamDateTime("2026-03-29T09:30:00+02:00", "rfc3339").toISOString()).toBe("2026-03-29T07:30:00.000Z");
  });
});

describe("dates and phone numbers", () => {
  test("accepts only real calendar dates", () => {
    expect(isLocalDate("2024-02-29")).toBe(true);
    expect(isLocalDate("2026-12-31")).toBe(true);
    for (const value of ["2026-02-29", "2026-02-30", "2026-13-01", "2026-00-10", "2026-04-31", "2026-1-01", "20260101", "2026-01-01T00:00:00Z"]) {
      expect(LocalDate.safeParse(value).success, value).toBe(false);
    }
  });

  test("gives the location's local date of an instant", () => {
    // 23:30 UTC on 31 Dec is already New Year in Berlin and still New Year's Eve in New York.
    expect(formatLocalDate(utc("2025-12-31T23:30:00Z"), "Europe/Berlin")).toBe("2026-01-01");
    expect(formatLocalDate(utc("2025-12-31T23:30:00Z"), "America/New_York")).toBe("2025-12-31");
  });

  test("accepts + followed by digits as a mobile phone number, nothing else", () => {
    expect(MobilePhoneNumber.safeParse("+4915112345678").success).toBe(true);
    for (const value of ["4915112345678", "+49 151 1234", "+49-151", "+", "++49", "+49a", ""]) {
      expect(MobilePhoneNumber.safeParse(value).success, value).toBe(false);
    }
  });
});

import { describe, expect, test } from "vitest";
import { parseUpstreamDateTime } from "@/lib/upstream/formats";
import { normaliseLocalDateTime } from "./local-date-time";

const berlin = { timeZone: "Europe/Berlin", dateTimeStyle: "spec" } as const;
const newYork = { timeZone: "America/New_York", dateTimeStyle: "spec" } as const;

describe("normaliseLocalDateTime", () => {
  test("writes the wall time with the zone's offset at that instant, in the environment's style", () => {
    expect(normaliseLocalDateTime("2026-01-15 09:30:00", "start_at", berlin)).toEqual({
      value: { dateTime: "2026-01-15T09:30:00Z+01:00", instant: Date.parse("2026-01-15T08:30:00Z"), localDate: "2026-01-15" },
      issues: [],
    });
    expect(normaliseLocalDateTime("2026-07-15 09:30:00", "start_at", berlin).value?.dateTime).toBe("2026-07-15T09:30:00Z+02:00");
    expect(normaliseLocalDateTime("2026-07-15 09:30:00", "start_at", { ...berlin, dateTimeStyle: "rfc3339" }).value?.dateTime).toBe(
      "2026-07-15T09:30:00+02:00",
    );
  });

  test("tolerates a T, missing seconds and fractions of a second", () => {
    expect(normaliseLocalDateTime("2026-01-15T09:30", "start_at", berlin).value?.dateTime).toBe("2026-01-15T09:30:00Z+01:00");
    expect(normaliseLocalDateTime("2026-01-15 09:30:05.123456", "start_at", berlin).value?.dateTime).toBe("2026-01-15T09:30:05Z+01:00");
  });

  test("keeps the local date near midnight, where the UTC date differs", () => {
    const lateEvening = normaliseLocalDateTime("2026-05-04 23:30:00", "start_at", newYork).value;
    expect(lateEvening).toEqual({ dateTime: "2026-05-04T23:30:00Z-04:00", instant: Date.parse("2026-05-05T03:30:00Z"), localDate: "2026-05-04" });
    const earlyMorning = normaliseLocalDateTime("2026-05-05 00:30:00", "start_at", berlin).value;
    expect(earlyMorning).toEqual({ dateTime: "2026-05-05T00:30:00Z+02:00", instant: Date.parse("2026-05-04T22:30:00Z"), localDate: "2026-05-05" });
  });

  describe("spring forward: a skipped wall time moves forward by the gap, with a warning", () => {
    test.each([
      ["Europe/Berlin", "2026-03-29 02:30:00", "2026-03-29T03:30:00Z+02:00", "2026-03-29T01:30:00Z", "sent as 03:30"],
      ["Europe/Berlin", "2026-03-29 02:00:00", "2026-03-29T03:00:00Z+02:00", "2026-03-29T01:00:00Z", "sent as 03:00"],
      ["America/New_York", "2026-03-08 02:15:00", "2026-03-08T03:15:00Z-04:00", "2026-03-08T07:15:00Z", "sent as 03:15"],
    ])("%s %s", (timeZone, wallTime, dateTime, instant, sentAs) => {
      const location = { timeZone, dateTimeStyle: "spec" } as const;
      expect(normaliseLocalDateTime(wallTime, "start_at", location)).toEqual({
        value: { dateTime, instant: Date.parse(instant), localDate: wallTime.slice(0, 10) },
        issues: [
          {
            severity: "warning",
            field: "start_at",
            code: "nonexistent_local_time",
            reason: `does not exist in ${location.timeZone} (clock change); ${sentAs}`,
            original: wallTime,
          },
        ],
      });
    });

    test("the minutes either side of the gap exist and carry no issue", () => {
      expect(normaliseLocalDateTime("2026-03-29 01:59:59", "start_at", berlin)).toMatchObject({
        value: { dateTime: "2026-03-29T01:59:59Z+01:00" },
        issues: [],
      });
      expect(normaliseLocalDateTime("2026-03-29 03:00:00", "start_at", berlin)).toMatchObject({
        value: { dateTime: "2026-03-29T03:00:00Z+02:00" },
        issues: [],
      });
    });

    test("names the date when a whole day was skipped", () => {
      const placed = normaliseLocalDateTime("2011-12-30 10:00:00", "start_at", { timeZone: "Pacific/Apia", dateTimeStyle: "spec" });
      expect(placed.value?.dateTime).toBe("2011-12-31T10:00:00Z+14:00");
      expect(placed.issues[0]?.reason).toBe("does not exist in Pacific/Apia (clock change); sent as 2011-12-31 10:00");
    });
  });

  describe("fall back: a repeated wall time takes the earlier instant, with a warning", () => {
    test.each([
      ["Europe/Berlin", "2026-10-25 02:30:00", "2026-10-25T02:30:00Z+02:00", "2026-10-25T00:30:00Z", "+02:00"],
      ["America/New_York", "2026-11-01 01:30:00", "2026-11-01T01:30:00Z-04:00", "2026-11-01T05:30:00Z", "-04:00"],
    ])("%s %s", (timeZone, wallTime, dateTime, instant, offset) => {
      const location = { timeZone, dateTimeStyle: "spec" } as const;
      const placed = normaliseLocalDateTime(wallTime, "end_at", location);
      expect(placed).toEqual({
        value: { dateTime, instant: Date.parse(instant), localDate: wallTime.slice(0, 10) },
        issues: [
          {
            severity: "warning",
            field: "end_at",
            code: "ambiguous_local_time",
            reason: `occurs twice in ${location.timeZone} (clock change); sent as the earlier one, UTC${offset}`,
            original: wallTime,
          },
        ],
      });
      expect(parseUpstreamDateTime(dateTime).getTime()).toBe(Date.parse(instant));
    });

    test("the hour after the overlap is unambiguous", () => {
      expect(normaliseLocalDateTime("2026-10-25 03:00:00", "start_at", berlin)).toMatchObject({
        value: { dateTime: "2026-10-25T03:00:00Z+01:00" },
        issues: [],
      });
    });
  });

  test("a missing value is an error", () => {
    expect(normaliseLocalDateTime(null, "start_at", berlin)).toEqual({
      value: undefined,
      issues: [{ severity: "error", field: "start_at", code: "missing_date_time", reason: "is missing", original: null }],
    });
    expect(normaliseLocalDateTime("  ", "start_at", berlin).issues[0]?.code).toBe("missing_date_time");
  });

  test.each(["2026-02-30 10:00:00", "2026-01-15 24:00:00", "2026-01-15 10:60:00", "15.01.2026 10:00", "2026-01-15", "2026-01-15 10:00:00+02"])(
    "%s is an error",
    (value) => {
      expect(normaliseLocalDateTime(value, "start_at", berlin)).toEqual({
        value: undefined,
        issues: [
          {
            severity: "error",
            field: "start_at",
            code: "invalid_date_time",
            reason: "is not a local date-time YYYY-MM-DD HH:MM:SS",
            original: value,
          },
        ],
      });
    },
  );

  test("refuses an unknown time zone (a configuration error, not a row's)", () => {
    expect(() => normaliseLocalDateTime("2026-01-15 10:00:00", "start_at", { timeZone: "Mars/Olympus", dateTimeStyle: "spec" })).toThrow(RangeError);
  });
});

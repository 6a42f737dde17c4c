import { describe, expect, it } from "vitest";
import { DateTime } from "luxon";
import { planPreviewReads } from "@/lib/preview/preview-plan";
import { nextDate } from "./date-ranges";
import { appointmentHorizonEnd, isWithinOpeningsHorizon, localToday, openingsDateRange } from "./local-dates";

const windowOf = (timeZone: string, now: Date, resource: "appointments" | "availability") => {
  const read = planPreviewReads({ timeZone, automotive: false }, now).find((candidate) => candidate.resource === resource)!;
  return { windowStart: read.windowStart, windowEnd: read.windowEnd };
};

/** The instant of a wall time `YYYY-MM-DD HH:MM:SS` in a zone (a real one: not in a gap). */
const instantOf = (wallTime: string, timeZone: string) => DateTime.fromSQL(wallTime, { zone: timeZone }).toMillis();

describe("the appointment window on days without a local midnight, and on days of 23 or 25 hours", () => {
  it.each([
    // The clock jumps from 24:00 to 01:00 on the day `now` is on: local 00:00 does not exist that day.
    { timeZone: "America/Santiago", now: "2025-09-07T13:00:00Z", today: "2025-09-07", horizonEnd: "2026-03-07" },
    { timeZone: "America/Havana", now: "2025-03-09T14:00:00Z", today: "2025-03-09", horizonEnd: "2025-09-09" },
    { timeZone: "America/Asuncion", now: "2024-10-06T13:00:00Z", today: "2024-10-06", horizonEnd: "2025-04-06" },
    { timeZone: "Asia/Beirut", now: "2023-03-26T07:00:00Z", today: "2023-03-26", horizonEnd: "2023-09-26" },
    // The day after the horizon has no midnight.
    { timeZone: "America/Santiago", now: "2026-03-05T13:00:00Z", today: "2026-03-05", horizonEnd: "2026-09-05" },
    { timeZone: "America/Havana", now: "2024-09-08T14:00:00Z", today: "2024-09-08", horizonEnd: "2025-03-08" },
    // Midnight occurs twice (Havana falls back from 01:00 to 00:00).
    { timeZone: "America/Havana", now: "2025-11-02T15:00:00Z", today: "2025-11-02", horizonEnd: "2026-05-02" },
    // 23 and 25 hours.
    { timeZone: "Europe/Berlin", now: "2026-03-29T08:00:00Z", today: "2026-03-29", horizonEnd: "2026-09-29" },
    { timeZone: "Europe/Berlin", now: "2026-10-25T09:00:00Z", today: "2026-10-25", horizonEnd: "2027-04-25" },
    // Six months later falls on a day the zone skipped whole (Samoa, 30 December 2011): the next day.
    { timeZone: "Pacific/Apia", now: "2011-06-30T21:00:00Z", today: "2011-06-30", horizonEnd: "2011-12-31" },
  ])("$timeZone at $now: the preview reads every appointment up to the end of $horizonEnd, the last day a sync imports", (example) => {
    const now = new Date(example.now);
    expect(localToday(now, example.timeZone)).toBe(example.today);
    expect(appointmentHorizonEnd(now, example.timeZone)).toBe(example.horizonEnd);
    // The window's end (excluded) is the wall clock's midnight after the horizon: not 01:00 when a clock skips it,
    // which took in the next day's first hour (a visit the preview listed and no import sends).
    expect(windowOf(example.timeZone, now, "appointments")).toEqual({ windowStart: null, windowEnd: `${nextDate(example.horizonEnd)} 00:00:00` });
  });

  it("leaves out a visit in the first hour after the horizon and takes in one at its last minute, on Santiago's spring-forward day", () => {
    const { windowEnd } = windowOf("America/Santiago", new Date("2025-09-07T13:00:00Z"), "appointments");
    // Source windows compare wall times: [window_start, window_end).
    expect("2026-03-07 23:59:00" < windowEnd!).toBe(true);
    expect("2026-03-08 00:30:00" < windowEnd!).toBe(false);
  });
});

describe("the openings window across a clock change", () => {
  it.each([
    // Spring forward inside the 72 hours: 73 hours of wall clock.
    {
      timeZone: "America/Santiago",
      now: "2025-09-04T14:00:00Z",
      window: ["2025-09-04 10:00:00", "2025-09-07 11:00:00"],
      dates: ["2025-09-04", "2025-09-07"],
    },
    {
      timeZone: "America/Havana",
      now: "2025-03-06T15:00:00Z",
      window: ["2025-03-06 10:00:00", "2025-03-09 11:00:00"],
      dates: ["2025-03-06", "2025-03-09"],
    },
    // Late on the evening before a day without midnight.
    {
      timeZone: "America/Santiago",
      now: "2025-09-06T03:30:00Z",
      window: ["2025-09-05 23:30:00", "2025-09-09 00:30:00"],
      dates: ["2025-09-05", "2025-09-09"],
    },
    // Fall back inside the 72 hours: 71 hours of wall clock.
    {
      timeZone: "America/Santiago",
      now: "2026-04-03T13:00:00Z",
      window: ["2026-04-03 10:00:00", "2026-04-06 09:00:00"],
      dates: ["2026-04-03", "2026-04-06"],
    },
  ])("$timeZone at $now: 72 real hours, not an hour more or less, and every local date they touch", ({ timeZone, now, window, dates }) => {
    const at = new Date(now);
    const read = windowOf(timeZone, at, "availability");
    expect([read.windowStart, read.windowEnd]).toEqual(window);
    expect(instantOf(read.windowEnd!, timeZone) - at.getTime()).toBe(72 * 3_600_000);
    expect(openingsDateRange(at, timeZone)).toEqual({ startDate: dates[0], endDate: dates[1] });
  });
});

describe("the openings horizon, as instants", () => {
  it("takes in an opening from the session's moment up to, not including, 72 hours later", () => {
    const now = new Date("2026-03-26T01:10:00Z");
    expect(isWithinOpeningsHorizon(Date.parse("2026-03-26T01:10:00Z"), now)).toBe(true);
    expect(isWithinOpeningsHorizon(Date.parse("2026-03-29T01:09:59Z"), now)).toBe(true);
    expect(isWithinOpeningsHorizon(Date.parse("2026-03-29T01:10:00Z"), now)).toBe(false);
    expect(isWithinOpeningsHorizon(Date.parse("2026-03-26T01:09:59Z"), now)).toBe(false);
  });
});

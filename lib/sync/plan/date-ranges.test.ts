import { describe, expect, it } from "vitest";
import { DateTime } from "luxon";
import { chooseAppointmentRanges, touchedDatesRule } from "./choose-appointment-ranges";
import { coalesceDates, coalesceNearbyDates, monthlyRanges, parseRangeKey, rangeKey } from "./date-ranges";
import { openingsDateRange } from "./local-dates";

describe("date ranges", () => {
  it("splits a span into calendar months, clipping the first and the last", () => {
    expect(monthlyRanges("2026-01-15", "2026-03-10").map(rangeKey)).toEqual([
      "2026-01-15..2026-01-31",
      "2026-02-01..2026-02-28",
      "2026-03-01..2026-03-10",
    ]);
  });

  it("coalesces consecutive dates, across month ends, whatever their order", () => {
    expect(coalesceDates(["2026-03-02", "2026-02-28", "2026-03-01", "2026-03-05", "2026-03-01"]).map(rangeKey)).toEqual([
      "2026-02-28..2026-03-02",
      "2026-03-05..2026-03-05",
    ]);
  });

  it("merges dates at most `maxGapDays` untouched days apart, and no others while few enough ranges remain", () => {
    const dates = ["2026-03-01", "2026-03-05", "2026-03-06", "2026-03-11", "2026-03-20"];
    expect(coalesceNearbyDates(dates, { maxGapDays: 3, maxRanges: 6 }).map(rangeKey)).toEqual([
      "2026-03-01..2026-03-06",
      "2026-03-11..2026-03-11",
      "2026-03-20..2026-03-20",
    ]);
    expect(coalesceNearbyDates(dates, { maxGapDays: 4, maxRanges: 6 }).map(rangeKey)).toEqual(["2026-03-01..2026-03-11", "2026-03-20..2026-03-20"]);
    expect(coalesceNearbyDates(dates, { maxGapDays: 0, maxRanges: 6 })).toEqual(coalesceDates(dates));
    expect(coalesceNearbyDates([], { maxGapDays: 3, maxRanges: 6 })).toEqual([]);
  });

  it("then merges the closest ranges until at most `maxRanges` remain", () => {
    // Gaps of 9, 4, 19, 6 and 14 untouched days: four ranges close the 4- and the 6-day gaps, three the 9-day one too.
    const dates = ["2026-01-01", "2026-01-11", "2026-01-16", "2026-02-05", "2026-02-12", "2026-02-27"];
    expect(coalesceNearbyDates(dates, { maxGapDays: 0, maxRanges: 4 }).map(rangeKey)).toEqual([
      "2026-01-01..2026-01-01",
      "2026-01-11..2026-01-16",
      "2026-02-05..2026-02-12",
      "2026-02-27..2026-02-27",
    ]);
    expect(coalesceNearbyDates(dates, { maxGapDays: 0, maxRanges: 3 }).map(rangeKey)).toEqual([
      "2026-01-01..2026-01-16",
      "2026-02-05..2026-02-12",
      "2026-02-27..2026-02-27",
    ]);
    expect(coalesceNearbyDates(dates, { maxGapDays: 0, maxRanges: 1 }).map(rangeKey)).toEqual(["2026-01-01..2026-02-27"]);
    // Equally close: the pair that makes the shorter range, then the earlier one.
    expect(coalesceNearbyDates(["2026-01-01", "2026-01-11", "2026-01-21"], { maxGapDays: 0, maxRanges: 2 }).map(rangeKey)).toEqual([
      "2026-01-01..2026-01-11",
      "2026-01-21..2026-01-21",
    ]);
    expect(coalesceNearbyDates(["2026-01-01", "2026-01-03", "2026-01-13", "2026-01-23"], { maxGapDays: 0, maxRanges: 2 }).map(rangeKey)).toEqual([
      "2026-01-01..2026-01-03",
      "2026-01-13..2026-01-23",
    ]);
    const weekly = Array.from(
      { length: 12 },
      (_, week) => `2026-${week < 5 ? "01" : week < 9 ? "02" : "03"}-${String([1, 8, 15, 22, 29, 5, 12, 19, 26, 5, 12, 19][week]).padStart(2, "0")}`,
    );
    // Twelve weekly dates: pairs first, then pairs of pairs, rather than one range growing week by week.
    expect(coalesceNearbyDates(weekly, { maxGapDays: 0, maxRanges: 4 }).map(rangeKey)).toEqual([
      "2026-01-01..2026-01-22",
      "2026-01-29..2026-02-19",
      "2026-02-26..2026-03-05",
      "2026-03-12..2026-03-19",
    ]);
  });

  it("turns 149 dates scattered over more than a year into six imports", () => {
    const start = DateTime.fromISO("2025-09-01", { zone: "UTC" });
    // Every second or third day from September 2025 to October 2026, eight quiet days after every 20 dates.
    const dates: string[] = [];
    for (let offset = 0; dates.length < 149; offset += dates.length % 20 === 19 ? 9 : 2 + (dates.length % 2))
      dates.push(start.plus({ days: offset }).toISODate()!);
    expect(coalesceDates(dates)).toHaveLength(149);
    const ranges = coalesceNearbyDates(dates, touchedDatesRule);
    expect(ranges).toHaveLength(6);
    expect(ranges[0]!.startDate).toBe(dates[0]);
    expect(ranges.at(-1)!.endDate).toBe(dates.at(-1));
  });

  it("reads back its keys", () => {
    expect(parseRangeKey("2026-01-01..2026-01-31")).toEqual({ startDate: "2026-01-01", endDate: "2026-01-31" });
  });

  it("covers the next 72 hours of the location's local dates for openings", () => {
    // 23:30 in Berlin on 27 March: 72 h later is 31 March (the DST change on the 29th included).
    expect(openingsDateRange(new Date("2026-03-27T22:30:00Z"), "Europe/Berlin")).toEqual({ startDate: "2026-03-27", endDate: "2026-03-31" });
  });
});

describe("chooseAppointmentRanges", () => {
  const base = {
    full: false,
    anySynced: true,
    anySyncedWithoutDate: false,
    earliestDate: "2025-11-20",
    touchedDates: [] as string[],
    today: "2026-01-10",
    horizonEnd: "2026-07-10",
  };

  it("sends the whole history month by month on a first sync", () => {
    const plan = chooseAppointmentRanges({ ...base, anySynced: false });
    expect(plan.mode).toBe("history");
    expect(plan.ranges[0]).toEqual({ startDate: "2025-11-20", endDate: "2025-11-30" });
    expect(plan.ranges.at(-1)).toEqual({ startDate: "2026-07-01", endDate: "2026-07-10" });
    expect(plan.ranges).toHaveLength(9);
  });

  it("sends the whole history again on a full resync", () => {
    expect(chooseAppointmentRanges({ ...base, full: true }).mode).toBe("history");
  });

  it("sends only the touched dates later, coalesced", () => {
    const plan = chooseAppointmentRanges({ ...base, touchedDates: ["2026-01-12", "2026-01-11", "2025-12-01"] });
    expect(plan).toEqual({
      mode: "touched",
      ranges: [
        { startDate: "2025-12-01", endDate: "2025-12-01" },
        { startDate: "2026-01-11", endDate: "2026-01-12" },
      ],
    });
  });

  it("merges touched dates a few days apart into one import, and never goes past the horizon", () => {
    const plan = chooseAppointmentRanges({
      ...base,
      touchedDates: ["2026-01-12", "2026-01-15", "2026-01-20", "2026-07-10", "2026-07-11", "2026-07-14"],
    });
    expect(plan).toEqual({
      mode: "touched",
      ranges: [
        { startDate: "2026-01-12", endDate: "2026-01-15" },
        { startDate: "2026-01-20", endDate: "2026-01-20" },
        { startDate: "2026-07-10", endDate: "2026-07-10" },
      ],
    });
  });

  it("falls back to today → 6 months without a usable record of what was sent", () => {
    expect(chooseAppointmentRanges({ ...base, anySyncedWithoutDate: true })).toEqual({
      mode: "fallback",
      ranges: [{ startDate: "2026-01-10", endDate: "2026-07-10" }],
    });
  });
});

import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { chooseAppointmentRanges } from "./choose-appointment-ranges";
import { coalesceDates, coalesceNearbyDates, type DateRange } from "./date-ranges";

const origin = DateTime.fromISO("2025-01-01", { zone: "UTC" });
const dateAt = (offset: number) => origin.plus({ days: offset }).toISODate()!;
const offsetOf = (date: string) => DateTime.fromISO(date, { zone: "UTC" }).diff(origin, "days").days;

// Clustered and scattered dates over three years (duplicates and any order included).
const touchedDates = fc
  .oneof(
    fc.array(fc.integer({ min: 0, max: 1100 }), { maxLength: 200 }),
    fc
      .array(fc.tuple(fc.integer({ min: 0, max: 1100 }), fc.integer({ min: 0, max: 6 })), { maxLength: 40 })
      .map((clusters) => clusters.flatMap(([start, length]) => Array.from({ length: length + 1 }, (_, day) => start + day))),
  )
  .map((offsets) => offsets.map(dateAt));
const rule = fc.record({ maxGapDays: fc.integer({ min: 0, max: 10 }), maxRanges: fc.integer({ min: 1, max: 8 }) });

/** Untouched days between consecutive ranges. */
const gapsOf = (ranges: readonly DateRange[]) =>
  ranges.slice(1).map((range, index) => offsetOf(range.startDate) - offsetOf(ranges[index]!.endDate) - 1);

describe("coalesceNearbyDates", () => {
  it("covers every date with sorted, disjoint ranges that start and end on given dates, at most maxRanges of them", () => {
    fc.assert(
      fc.property(touchedDates, rule, (dates, mergeRule) => {
        const ranges = coalesceNearbyDates(dates, mergeRule);
        const given = new Set(dates);
        expect(ranges.length).toBeLessThanOrEqual(mergeRule.maxRanges);
        expect(ranges.length > 0).toBe(dates.length > 0);
        for (const range of ranges) {
          expect(range.startDate <= range.endDate).toBe(true);
          // A range never takes in days before the first or after the last touched date it merges.
          expect(given.has(range.startDate) && given.has(range.endDate)).toBe(true);
        }
        // Sorted and disjoint, with at least one untouched day between neighbours (touching ones would be one range).
        for (const gap of gapsOf(ranges)) expect(gap).toBeGreaterThan(0);
        for (const date of given) expect(ranges.filter((range) => range.startDate <= date && date <= range.endDate)).toHaveLength(1);
      }),
      { numRuns: 2000 },
    );
  });

  it("merges only what the rule asks: every gap left is wider than maxGapDays and than any wider gap merged", () => {
    fc.assert(
      fc.property(touchedDates, rule, (dates, mergeRule) => {
        const ranges = coalesceNearbyDates(dates, mergeRule);
        const runs = coalesceDates(dates);
        const runGaps = gapsOf(runs);
        const wide = runGaps.filter((gap) => gap > mergeRule.maxGapDays);
        // As many ranges as the rule allows: one per run of nearby dates, at most maxRanges.
        expect(ranges).toHaveLength(runs.length === 0 ? 0 : Math.min(mergeRule.maxRanges, wide.length + 1));
        const kept = gapsOf(ranges);
        for (const gap of kept) expect(gap).toBeGreaterThan(mergeRule.maxGapDays);
        // The gaps left open are the widest: no merged gap is wider than one left open, so the fewest untouched days are taken in.
        const ascending = (gaps: number[]) => [...gaps].sort((a, b) => a - b);
        expect(ascending(kept)).toEqual(ascending(wide).slice(wide.length - kept.length));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("chooseAppointmentRanges, later syncs", () => {
  it("make at most 6 imports that cover every touched date up to the horizon and nothing past it", () => {
    fc.assert(
      fc.property(touchedDates, fc.integer({ min: 0, max: 1100 }), (dates, horizonOffset) => {
        const horizonEnd = dateAt(horizonOffset);
        const plan = chooseAppointmentRanges({
          full: false,
          anySynced: true,
          anySyncedWithoutDate: false,
          earliestDate: dateAt(0),
          touchedDates: dates,
          today: dateAt(0),
          horizonEnd,
        });
        expect(plan.mode).toBe("touched");
        expect(plan.ranges.length).toBeLessThanOrEqual(6);
        for (const range of plan.ranges) expect(range.endDate <= horizonEnd).toBe(true);
        for (const date of dates.filter((date) => date <= horizonEnd)) {
          expect(plan.ranges.some((range) => range.startDate <= date && date <= range.endDate)).toBe(true);
        }
        if (!dates.some((date) => date <= horizonEnd)) expect(plan.ranges).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});

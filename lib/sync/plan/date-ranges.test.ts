import { describe, expect, it } from "vitest";
import { chooseAppointmentRanges } from "./choose-appointment-ranges";
import { coalesceDates, monthlyRanges, parseRangeKey, rangeKey } from "./date-ranges";
import { openingsDateRange } from "./local-dates";

describe("date ranges", () => {
  it("splits a span into calendar months, clipping the first and the last", () => {
    expect(monthlyRanges("2026-01-15", "2026-03-10").map(rangeKey)).toEqual(["2026-01-15..2026-01-31", "2026-02-01..2026-02-28", "2026-03-01..2026-03-10"]);
  });

  it("coalesces consecutive dates, across month ends, whatever their order", () => {
    expect(coalesceDates(["2026-03-02", "2026-02-28", "2026-03-01", "2026-03-05", "2026-03-01"]).map(rangeKey)).toEqual([
      "2026-02-28..2026-03-02",
      "2026-03-05..2026-03-05",
    ]);
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
  const base = { full: false, anySynced: true, anySyncedWithoutDate: false, earliestDate: "2025-11-20", touchedDates: [] as string[], today: "2026-01-10", horizonEnd: "2026-07-10" };

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
    expect(plan).toEqual({ mode: "touched", ranges: [{ startDate: "2025-12-01", endDate: "2025-12-01" }, { startDate: "2026-01-11", endDate: "2026-01-12" }] });
  });

  it("falls back to today → 6 months without a usable record of what was sent", () => {
    expect(chooseAppointmentRanges({ ...base, anySyncedWithoutDate: true })).toEqual({ mode: "fallback", ranges: [{ startDate: "2026-01-10", endDate: "2026-07-10" }] });
  });
});

import { DateTime } from "luxon";

/** An inclusive range of local dates (YYYY-MM-DD). */
export interface DateRange {
  startDate: string;
  endDate: string;
}

const day = (date: string) => DateTime.fromISO(date, { zone: "UTC" });

/** One range per calendar month from `startDate` to `endDate`, both included (first and last month clipped). */
export function monthlyRanges(startDate: string, endDate: string): DateRange[] {
  const ranges: DateRange[] = [];
  const last = day(endDate);
  for (let start = day(startDate); start <= last; start = start.plus({ months: 1 }).startOf("month")) {
    const monthEnd = start.endOf("month").startOf("day");
    ranges.push({ startDate: start.toISODate()!, endDate: (monthEnd < last ? monthEnd : last).toISODate()! });
  }
  return ranges;
}

/** Consecutive dates coalesced into ranges; input in any order, duplicates allowed. */
export function coalesceDates(dates: readonly string[]): DateRange[] {
  const sorted = [...new Set(dates)].sort();
  const ranges: DateRange[] = [];
  for (const date of sorted) {
    const previous = ranges.at(-1);
    if (previous && day(previous.endDate).plus({ days: 1 }).toISODate() === date) previous.endDate = date;
    else ranges.push({ startDate: date, endDate: date });
  }
  return ranges;
}

/** How touched dates may be merged into fewer imports. */
export interface MergeRule {
  /** Ranges with at most this many untouched days between them are merged. */
  maxGapDays: number;
  /** Then the two closest ranges are merged until at most this many remain. */
  maxRanges: number;
}

/** Untouched days strictly between two ranges in order. */
const daysBetween = (before: DateRange, after: DateRange) => day(after.startDate).diff(day(before.endDate), "days").days - 1;

/**
 * Touched dates as at most `rule.maxRanges` ranges: consecutive dates coalesced, ranges at most `rule.maxGapDays`
 * apart merged, then the closest pair merged again and again until few enough remain. Every range starts and ends on
 * a given date, so a merge only takes in the untouched days between two touched ones. Merging the narrowest gaps
 * first takes in the fewest untouched days that `maxRanges` ranges allow (gaps do not change as neighbours merge:
 * it is the same as merging the smallest gaps at once). Ties merge the earlier gap first.
 */
export function coalesceNearbyDates(dates: readonly string[], rule: MergeRule): DateRange[] {
  const runs = coalesceDates(dates);
  const gaps = runs.slice(1).map((run, index) => ({ index, days: daysBetween(runs[index]!, run) }));
  const merged = new Set(gaps.filter((gap) => gap.days <= rule.maxGapDays).map((gap) => gap.index));
  const excess = runs.length - merged.size - Math.max(1, rule.maxRanges);
  const widerGaps = gaps.filter((gap) => !merged.has(gap.index)).sort((a, b) => a.days - b.days || a.index - b.index);
  for (const gap of widerGaps.slice(0, Math.max(0, excess))) merged.add(gap.index);
  const ranges: DateRange[] = [];
  for (const [index, run] of runs.entries()) {
    if (index > 0 && merged.has(index - 1)) ranges.at(-1)!.endDate = run.endDate;
    else ranges.push({ ...run });
  }
  return ranges;
}

export const rangeKey = (range: DateRange) => `${range.startDate}..${range.endDate}`;

export function parseRangeKey(key: string): DateRange {
  const match = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(key);
  if (!match) throw new Error(`not a date range key: ${key}`);
  return { startDate: match[1]!, endDate: match[2]! };
}

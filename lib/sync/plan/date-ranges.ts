import { DateTime } from "luxon";

/** An inclusive range of local dates (YYYY-MM-DD). */
export interface DateRange {
  startDate: string;
  endDate: string;
}

const day = (date: string) => DateTime.fromISO(date, { zone: "UTC" });

/** The local date after `date`. */
export const nextDate = (date: string) => day(date).plus({ days: 1 }).toISODate()!;

/** The local date before `date`. */
export const previousDate = (date: string) => day(date).minus({ days: 1 }).toISODate()!;

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

/** Days since 1970-01-01 of a date (YYYY-MM-DD). */
export const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** The date (YYYY-MM-DD) of a day number. */
export const dateOfDayNumber = (days: number) => new Date(days * 86_400_000).toISOString().slice(0, 10);

/**
 * Touched dates as at most `rule.maxRanges` ranges: consecutive dates coalesced, ranges at most `rule.maxGapDays`
 * untouched days apart merged, then the closest pair merged again and again until few enough remain (among equally
 * close pairs the one that makes the shorter range, then the earlier). Every range starts and ends on a given date,
 * so a merge only takes in the untouched days between two touched ones; merging the narrowest gaps first leaves the
 * widest open, which takes in the fewest untouched days that `maxRanges` ranges allow.
 */
export function coalesceNearbyDates(dates: readonly string[], rule: MergeRule): DateRange[] {
  const ranges: (DateRange & { first: number; last: number })[] = [];
  for (const run of coalesceDates(dates)) {
    const span = { ...run, first: dayNumber(run.startDate), last: dayNumber(run.endDate) };
    const previous = ranges.at(-1);
    if (previous && span.first - previous.last - 1 <= rule.maxGapDays) Object.assign(previous, { endDate: span.endDate, last: span.last });
    else ranges.push(span);
  }
  const gapAfter = (index: number) => ranges[index + 1]!.first - ranges[index]!.last;
  const lengthWithNext = (index: number) => ranges[index + 1]!.last - ranges[index]!.first;
  while (ranges.length > Math.max(1, rule.maxRanges)) {
    let best = 0;
    for (let index = 1; index < ranges.length - 1; index++) {
      const closer = gapAfter(index) - gapAfter(best) || lengthWithNext(index) - lengthWithNext(best);
      if (closer < 0) best = index;
    }
    const next = ranges[best + 1]!;
    Object.assign(ranges[best]!, { endDate: next.endDate, last: next.last });
    ranges.splice(best + 1, 1);
  }
  return ranges.map(({ startDate, endDate }) => ({ startDate, endDate }));
}

export const rangeKey = (range: DateRange) => `${range.startDate}..${range.endDate}`;

export function parseRangeKey(key: string): DateRange {
  const match = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(key);
  if (!match) throw new Error(`not a date range key: ${key}`);
  return { startDate: match[1]!, endDate: match[2]! };
}

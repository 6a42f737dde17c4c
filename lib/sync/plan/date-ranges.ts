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

export const rangeKey = (range: DateRange) => `${range.startDate}..${range.endDate}`;

export function parseRangeKey(key: string): DateRange {
  const match = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(key);
  if (!match) throw new Error(`not a date range key: ${key}`);
  return { startDate: match[1]!, endDate: match[2]! };
}

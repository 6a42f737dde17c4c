import { coalesceNearbyDates, monthlyRanges, type DateRange, type MergeRule } from "./date-ranges";

export interface AppointmentHistory {
  /** A full resync was asked for. */
  full: boolean;
  /** Any appointment is recorded as accepted by the upstream. */
  anySynced: boolean;
  /** Any of those lacks the date it was sent for (no usable record of what was sent). */
  anySyncedWithoutDate: boolean;
  /** Earliest local date among valid appointments and those recorded as sent. */
  earliestDate: string | null;
  /** Local dates of new, changed, moved (old and new date), excluded and deleted appointments. */
  touchedDates: readonly string[];
  today: string;
  /** today + 6 months (local). */
  horizonEnd: string;
}

export type AppointmentPlanMode = "history" | "touched" | "fallback";

/**
 * How a later sync merges its touched dates: at most 6 imports (12 requests), whatever the spread of the changes
 * (scattered changes over a year once made 149), and touched dates at most 3 untouched days apart go in one import.
 * Each import sends every valid appointment of its range, so a merge trades the unchanged appointments of the days
 * between for one import less; merging the narrowest gaps first keeps those days fewest.
 */
export const touchedDatesRule: MergeRule = { maxGapDays: 3, maxRanges: 6 };

/**
 * Spec 4.4 item 4. First sync or full: the whole history to 6 months ahead, one import per
 * month. Later: the touched dates up to 6 months ahead merged into at most 6 ranges
 * (`touchedDatesRule`; each import replaces its range). Without a usable record of what was
 * sent: today → 6 months ahead.
 */
export function chooseAppointmentRanges(history: AppointmentHistory): { mode: AppointmentPlanMode; ranges: DateRange[] } {
  if (history.full || !history.anySynced) {
    const start = history.earliestDate && history.earliestDate < history.today ? history.earliestDate : history.today;
    return { mode: "history", ranges: monthlyRanges(start, history.horizonEnd) };
  }
  if (history.anySyncedWithoutDate) return { mode: "fallback", ranges: [{ startDate: history.today, endDate: history.horizonEnd }] };
  return {
    mode: "touched",
    ranges: coalesceNearbyDates(
      history.touchedDates.filter((date) => date <= history.horizonEnd),
      touchedDatesRule,
    ),
  };
}

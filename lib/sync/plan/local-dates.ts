import { DateTime } from "luxon";
import { nextDate } from "./date-ranges";

/** Spec 4.4: later syncs send up to 6 months of future appointments; openings need only the next 72 hours. */
export const FUTURE_APPOINTMENT_MONTHS = 6;
export const OPENINGS_HORIZON_HOURS = 72;

const isoDate = (time: DateTime) => time.toISODate()!;
const wallTime = (time: DateTime) => time.toFormat("yyyy-MM-dd HH:mm:ss");

/**
 * Where local `date` begins in a source window (local wall times, compared as text): its 00:00, written, never read
 * from an instant. A day whose clock skips midnight starts at 01:00 as an instant, but nothing of it is before 00:00
 * and nothing of the day before is after it.
 */
export const startOfLocalDate = (date: string) => `${date} 00:00:00`;

/** The location's local date at `now`. */
export function localToday(now: Date, timeZone: string): string {
  return isoDate(DateTime.fromJSDate(now, { zone: timeZone }));
}

/** Later syncs send up to 6 months of future appointments (spec 4.4): the last local date of that horizon. */
export function appointmentHorizonEnd(now: Date, timeZone: string): string {
  return isoDate(DateTime.fromJSDate(now, { zone: timeZone }).plus({ months: FUTURE_APPOINTMENT_MONTHS }));
}

/** The end (excluded, a local wall time) of the appointments a preview reads: the start of the day after the horizon. */
export function appointmentsWindowEnd(now: Date, timeZone: string): string {
  return startOfLocalDate(nextDate(appointmentHorizonEnd(now, timeZone)));
}

/** The free slots a preview reads, as local wall times: from `now` to 72 real hours later (excluded). */
export function openingsWindow(now: Date, timeZone: string): { windowStart: string; windowEnd: string } {
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  return { windowStart: wallTime(local), windowEnd: wallTime(local.plus({ hours: OPENINGS_HORIZON_HOURS })) };
}

/**
 * Whether an opening starting at `instant` (ms) is sent: from `now` to 72 hours later (excluded), as instants. The
 * source window compares wall times, so a slot typed in the hour a spring-forward skips is read and then moved past
 * the horizon by the gap (the upstream refuses such an upload whole); a repeated hour can place one before `now`.
 */
export function isWithinOpeningsHorizon(instant: number, now: Date): boolean {
  const from = now.getTime();
  return instant >= from && instant < from + OPENINGS_HORIZON_HOURS * 3_600_000;
}

/** Openings cover the next 72 hours: today through the local date 72 h ahead, inclusive. */
export function openingsDateRange(now: Date, timeZone: string): { startDate: string; endDate: string } {
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  return { startDate: isoDate(local), endDate: isoDate(local.plus({ hours: OPENINGS_HORIZON_HOURS })) };
}

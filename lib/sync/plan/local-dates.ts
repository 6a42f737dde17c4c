import { DateTime } from "luxon";
import { FUTURE_APPOINTMENT_MONTHS, OPENINGS_HORIZON_HOURS } from "@/lib/preview/preview-plan";

const isoDate = (time: DateTime) => time.toISODate()!;

/** The location's local date at `now`. */
export function localToday(now: Date, timeZone: string): string {
  return isoDate(DateTime.fromJSDate(now, { zone: timeZone }));
}

/** Later syncs send up to 6 months of future appointments (spec 4.4): the last local date of that horizon. */
export function appointmentHorizonEnd(now: Date, timeZone: string): string {
  return isoDate(DateTime.fromJSDate(now, { zone: timeZone }).plus({ months: FUTURE_APPOINTMENT_MONTHS }));
}

/** Openings cover the next 72 hours: today through the local date 72 h ahead, inclusive. */
export function openingsDateRange(now: Date, timeZone: string): { startDate: string; endDate: string } {
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  return { startDate: isoDate(local), endDate: isoDate(local.plus({ hours: OPENINGS_HORIZON_HOURS })) };
}

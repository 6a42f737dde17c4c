import { DateTime } from "luxon";

/** Where a time is read: the location's own IANA zone, or UTC for an engineer comparing logs. */
export type TimeZoneChoice = { timeZone: string; utc?: boolean };

const LOCALE = "en-GB";

function toDateTime(value: Date | string, { timeZone, utc }: TimeZoneChoice): DateTime {
  const instant = typeof value === "string" ? DateTime.fromISO(value, { setZone: true }) : DateTime.fromJSDate(value);
  return instant.setZone(utc ? "UTC" : timeZone).setLocale(LOCALE);
}

/** "24 Nov 2026, 10:52": a date and a time, in the location's zone (or UTC). */
export function formatAbsoluteTime(value: Date | string, zone: TimeZoneChoice): string {
  return toDateTime(value, zone).toFormat("d LLL yyyy, HH:mm");
}

/** "Tue 24 Nov 2026, 10:52:03 +01:00 (Europe/Berlin)": the whole instant, for a tooltip. */
export function formatFullTime(value: Date | string, zone: TimeZoneChoice): string {
  const shown = toDateTime(value, zone);
  return `${shown.toFormat("ccc d LLL yyyy, HH:mm:ss ZZ")} (${zone.utc ? "UTC" : zone.timeZone})`;
}

/** "Tue 10:00": a time within the coming or past week, e.g. a daily schedule's next run. */
export function formatWeekdayTime(value: Date | string, zone: TimeZoneChoice): string {
  return toDateTime(value, zone).toFormat("ccc HH:mm");
}

/** "5 min ago", "in 3 hr", "just now": how far an instant is from `now`. */
export function formatRelativeTime(value: Date | string, now: Date | number = Date.now()): string {
  const instant = typeof value === "string" ? DateTime.fromISO(value) : DateTime.fromJSDate(value);
  const base = DateTime.fromMillis(typeof now === "number" ? now : now.getTime());
  if (Math.abs(instant.diff(base).as("seconds")) < 45) return "just now";
  return instant.setLocale("en").toRelative({ base, style: "long" }) ?? formatAbsoluteTime(value, { timeZone: "UTC", utc: true });
}

/** The machine-readable instant for `<time dateTime>`. */
export function isoInstant(value: Date | string): string {
  return typeof value === "string" ? value : value.toISOString();
}

/** "Sat 28 Mar": a location's local calendar day (YYYY-MM-DD), e.g. a column of the openings calendar. */
export function formatLocalDay(day: string): string {
  return DateTime.fromISO(day, { zone: "UTC" }).setLocale(LOCALE).toFormat("ccc d LLL");
}

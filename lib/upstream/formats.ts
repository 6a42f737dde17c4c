import { DateTime, IANAZone } from "luxon";
import { cachedZone } from "./cached-zone";
import { z } from "zod";

/** How date-times are written in payloads: the spec's form (default) or plain RFC 3339. */
export const DateTimeStyle = z.enum(["spec", "rfc3339"]);
export type DateTimeStyle = z.infer<typeof DateTimeStyle>;
export const defaultDateTimeStyle: DateTimeStyle = "spec";

/** Spec 2.5: `+` then digits. */
export const mobilePhonePattern = /^\+[0-9]+$/;
export const localDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

// Spec 2.9: date, `T`, time, the letter `Z`, then the UTC offset. The `Z` is optional in the pattern
// only so one parser serves both styles; each style checks its own form.
const dateTimePattern = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(Z?)([+-])(\d{2}):(\d{2})$/;

// Real-world offsets lie within ±14:00; ±18:00 is the widest any standard library accepts.
const maxOffsetMinutes = 18 * 60;

/** True for a real calendar date `YYYY-MM-DD` (2026-02-30 is not one). */
export function isLocalDate(value: string): boolean {
  const match = localDatePattern.exec(value);
  if (!match) return false;
  return DateTime.fromObject({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }, { zone: "utc" }).isValid;
}

const knownZones = new Map<string, boolean>();

/**
 * Memoised: luxon checks a zone by building an Intl.DateTimeFormat, whose ICU memory lives outside
 * the JS heap and is freed late; checked per record, that grew a preview of 100k rows to gigabytes.
 */
export function isTimeZone(zone: string): boolean {
  let valid = knownZones.get(zone);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(zone);
    if (knownZones.size < 1000) knownZones.set(zone, valid);
  }
  return valid;
}

function zonedDateTime(instant: Date | number, timeZone: string): DateTime {
  if (!isTimeZone(timeZone)) throw new RangeError(`unknown IANA time zone: ${timeZone}`);
  const millis = typeof instant === "number" ? instant : instant.getTime();
  if (!Number.isFinite(millis)) throw new RangeError("invalid instant");
  return DateTime.fromMillis(millis, { zone: cachedZone(timeZone) });
}

/**
 * The payload form of an instant at a location: its local wall-clock time there, then (spec style) a literal
 * `Z`, then the zone's UTC offset at that instant, e.g. `2026-03-29T09:30:00Z+02:00` for Europe/Berlin.
 * Starting from an instant, DST gaps and overlaps cannot arise: each instant has exactly one local time and offset.
 */
export function formatUpstreamDateTime(instant: Date | number, timeZone: string, style: DateTimeStyle = defaultDateTimeStyle): string {
  const local = zonedDateTime(instant, timeZone).set({ millisecond: 0 });
  const wallClock = local.toFormat("yyyy-MM-dd'T'HH:mm:ss");
  const offset = local.toFormat("ZZ");
  return style === "spec" ? `${wallClock}Z${offset}` : `${wallClock}${offset}`;
}

/** The location's calendar date of an instant, `YYYY-MM-DD`. */
export function formatLocalDate(instant: Date | number, timeZone: string): string {
  return zonedDateTime(instant, timeZone).toFormat("yyyy-MM-dd");
}

export class InvalidDateTimeError extends Error {
  constructor(value: string, reason: string) {
    super(`invalid date-time ${JSON.stringify(value.slice(0, 40))}: ${reason}`);
    this.name = "InvalidDateTimeError";
  }
}

/** Why `value` is not a date-time of `style`, or undefined when it is one. */
export function describeDateTimeProblem(value: string, style: DateTimeStyle = defaultDateTimeStyle): string | undefined {
  const match = dateTimePattern.exec(value);
  const expected = style === "spec" ? "YYYY-MM-DDTHH:MM:SSZ±HH:MM" : "YYYY-MM-DDTHH:MM:SS±HH:MM";
  if (!match) return `must be a date-time ${expected}`;
  const [, date, hour, minute, second, zulu, , offsetHours, offsetMinutes] = match;
  if ((style === "spec") !== (zulu === "Z")) return `must be a date-time ${expected}`;
  if (!isLocalDate(date!)) return "must be a real calendar date";
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return "must be a real time of day";
  if (Number(offsetMinutes) > 59 || Number(offsetHours) * 60 + Number(offsetMinutes) > maxOffsetMinutes) {
    return "must have a UTC offset between -18:00 and +18:00";
  }
  return undefined;
}

/** The instant a payload date-time stands for; throws InvalidDateTimeError when its form is wrong. */
export function parseUpstreamDateTime(value: string, style: DateTimeStyle = defaultDateTimeStyle): Date {
  const problem = describeDateTimeProblem(value, style);
  if (problem) throw new InvalidDateTimeError(value, problem);
  // Dropping the `Z` of the spec form leaves RFC 3339, which Date.parse reads exactly.
  return new Date(Date.parse(style === "spec" ? value.replace(/Z(?=[+-]\d{2}:\d{2}$)/, "") : value));
}

/** `YYYY-MM-DD`, a real calendar date. */
export const LocalDate = z.string().refine(isLocalDate, "must be a real calendar date YYYY-MM-DD");
export type LocalDate = z.infer<typeof LocalDate>;

export const MobilePhoneNumber = z.string().regex(mobilePhonePattern, "must be + followed by digits");
export type MobilePhoneNumber = z.infer<typeof MobilePhoneNumber>;

export const IanaTimeZone = z.string().refine(isTimeZone, "must be an IANA time zone");

export function upstreamDateTimeOf(style: DateTimeStyle) {
  return z.string().superRefine((value, context) => {
    const problem = describeDateTimeProblem(value, style);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });
}

/** A date-time in the spec's form (section 2.9, as decided in ARCHITECTURE.md). */
export const UpstreamDateTime = upstreamDateTimeOf("spec");
export type UpstreamDateTime = z.infer<typeof UpstreamDateTime>;

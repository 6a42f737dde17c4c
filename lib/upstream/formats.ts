import { DateTime, IANAZone } from "luxon";
import { z } from "zod";
import { cachedZone } from "./cached-zone";
import { dayMs, digitsAt, isRealDate, minuteMs, offsetText, wallDateText, wallDateTimeText, wallMillisOf } from "./wall-clock";

/** How date-times are written in payloads: the spec's form (default) or plain RFC 3339. */
export const DateTimeStyle = z.enum(["spec", "rfc3339"]);
export type DateTimeStyle = z.infer<typeof DateTimeStyle>;
export const defaultDateTimeStyle: DateTimeStyle = "spec";

/** Spec 2.5: `+` then digits. */
export const mobilePhonePattern = /^\+[0-9]+$/;
export const localDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

// Real-world offsets lie within ±14:00; ±18:00 is the widest any standard library accepts.
const maxOffsetMinutes = 18 * 60;

// `YYYY-MM-DD` at the start of `value`, in ASCII digits (what `\d` matches).
function hasDateForm(value: string): boolean {
  return digitsAt(value, 0, 4) >= 0 && value[4] === "-" && digitsAt(value, 5, 2) >= 0 && value[7] === "-" && digitsAt(value, 8, 2) >= 0;
}

/** True for a real calendar date `YYYY-MM-DD` (2026-02-30 is not one). */
export function isLocalDate(value: string): boolean {
  return value.length === 10 && hasDateForm(value) && isRealDate(digitsAt(value, 0, 4), digitsAt(value, 5, 2), digitsAt(value, 8, 2));
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

function instantMillis(instant: Date | number, timeZone: string): number {
  if (!isTimeZone(timeZone)) throw new RangeError(`unknown IANA time zone: ${timeZone}`);
  const millis = typeof instant === "number" ? instant : instant.getTime();
  if (!Number.isFinite(millis)) throw new RangeError("invalid instant");
  return millis;
}

// Within this, an instant's wall clock stays inside the range of a Date; beyond it luxon decides (an invalid DateTime).
const maxWallMillis = 8.64e15 - 2 * dayMs;

/**
 * The zone's offset at a whole-millisecond instant, in whole minutes; NaN when luxon must decide (an offset with
 * seconds, as zones had before standard time, or an instant at the end of time).
 */
function wholeMinuteOffset(millis: number, timeZone: string): number {
  if (!Number.isInteger(millis) || Math.abs(millis) > maxWallMillis) return Number.NaN;
  const offset = cachedZone(timeZone).offset(millis);
  return Number.isInteger(offset) ? offset : Number.NaN;
}

function upstreamText(wallMillis: number, offset: number, style: DateTimeStyle): string {
  return `${wallDateTimeText(wallMillis, "T")}${style === "spec" ? "Z" : ""}${offsetText(offset)}`;
}

function zonedDateTime(millis: number, timeZone: string): DateTime {
  return DateTime.fromMillis(millis, { zone: cachedZone(timeZone) });
}

/**
 * The payload form of an instant at a location: its local wall-clock time there, then (spec style) a literal
 * `Z`, then the zone's UTC offset at that instant, e.g. `2026-03-29T09:30:00Z+02:00` for Europe/Berlin.
 * Starting from an instant, DST gaps and overlaps cannot arise: each instant has exactly one local time and offset.
 */
export function formatUpstreamDateTime(instant: Date | number, timeZone: string, style: DateTimeStyle = defaultDateTimeStyle): string {
  const millis = instantMillis(instant, timeZone);
  const offset = wholeMinuteOffset(millis, timeZone);
  if (!Number.isNaN(offset)) {
    // Milliseconds are cut from the wall clock; the offset is then the one of the cut instant, as luxon's set() takes it.
    const wallMillis = millis + offset * minuteMs;
    const cut = wallMillis - Math.floor(wallMillis / 1000) * 1000;
    if (cut === 0 || cachedZone(timeZone).offset(millis - cut) === offset) return upstreamText(wallMillis - cut, offset, style);
  }
  const local = zonedDateTime(millis, timeZone).set({ millisecond: 0 });
  const wallClock = local.toFormat("yyyy-MM-dd'T'HH:mm:ss");
  const offsetPart = local.toFormat("ZZ");
  return style === "spec" ? `${wallClock}Z${offsetPart}` : `${wallClock}${offsetPart}`;
}

/** The location's calendar date of an instant, `YYYY-MM-DD`. */
export function formatLocalDate(instant: Date | number, timeZone: string): string {
  const millis = instantMillis(instant, timeZone);
  const offset = wholeMinuteOffset(millis, timeZone);
  if (Number.isNaN(offset)) return zonedDateTime(millis, timeZone).toFormat("yyyy-MM-dd");
  return wallDateText(millis + offset * minuteMs);
}

/** formatUpstreamDateTime and formatLocalDate of one instant, its offset looked up once. */
export function formatInstantAt(instant: number, timeZone: string, style: DateTimeStyle): { dateTime: string; instant: number; localDate: string } {
  const offset = wholeMinuteOffset(instantMillis(instant, timeZone), timeZone);
  if (Number.isNaN(offset) || instant % 1000 !== 0) {
    return { dateTime: formatUpstreamDateTime(instant, timeZone, style), instant, localDate: formatLocalDate(instant, timeZone) };
  }
  const wallMillis = instant + offset * minuteMs;
  return { dateTime: upstreamText(wallMillis, offset, style), instant, localDate: wallDateText(wallMillis) };
}

export class InvalidDateTimeError extends Error {
  constructor(value: string, reason: string) {
    super(`invalid date-time ${JSON.stringify(value.slice(0, 40))}: ${reason}`);
    this.name = "InvalidDateTimeError";
  }
}

// Spec 2.9: date, `T`, time, the letter `Z`, then the UTC offset (`YYYY-MM-DDTHH:MM:SSZ±HH:MM`); the RFC 3339 style has
// no `Z`. Read by position, not by a regular expression: the record check runs this twice per appointment.
function hasDateTimeForm(value: string, style: DateTimeStyle): boolean {
  const offsetAt = style === "spec" ? 20 : 19;
  const sign = value[offsetAt];
  return (
    value.length === offsetAt + 6 &&
    hasDateForm(value) &&
    value[10] === "T" &&
    digitsAt(value, 11, 2) >= 0 &&
    value[13] === ":" &&
    digitsAt(value, 14, 2) >= 0 &&
    value[16] === ":" &&
    digitsAt(value, 17, 2) >= 0 &&
    (style !== "spec" || value[19] === "Z") &&
    (sign === "+" || sign === "-") &&
    digitsAt(value, offsetAt + 1, 2) >= 0 &&
    value[offsetAt + 3] === ":" &&
    digitsAt(value, offsetAt + 4, 2) >= 0
  );
}

/** Why `value` is not a date-time of `style`, or undefined when it is one. */
export function describeDateTimeProblem(value: string, style: DateTimeStyle = defaultDateTimeStyle): string | undefined {
  if (!hasDateTimeForm(value, style)) return `must be a date-time ${style === "spec" ? "YYYY-MM-DDTHH:MM:SSZ±HH:MM" : "YYYY-MM-DDTHH:MM:SS±HH:MM"}`;
  if (!isRealDate(digitsAt(value, 0, 4), digitsAt(value, 5, 2), digitsAt(value, 8, 2))) return "must be a real calendar date";
  if (digitsAt(value, 11, 2) > 23 || digitsAt(value, 14, 2) > 59 || digitsAt(value, 17, 2) > 59) return "must be a real time of day";
  const offsetHours = digitsAt(value, value.length - 5, 2);
  const offsetMinutes = digitsAt(value, value.length - 2, 2);
  if (offsetMinutes > 59 || offsetHours * 60 + offsetMinutes > maxOffsetMinutes) return "must have a UTC offset between -18:00 and +18:00";
  return undefined;
}

/**
 * The instant of a date-time of `style` (what Date.parse reads from it without the spec's `Z`), or NaN where
 * describeDateTimeProblem finds a problem with it: both in one pass over its characters, for the record checks.
 */
export function upstreamDateTimeMillis(value: string, style: DateTimeStyle): number {
  const offsetAt = style === "spec" ? 20 : 19;
  const sign = value[offsetAt];
  const separatorsFit =
    value.length === offsetAt + 6 &&
    value[4] === "-" &&
    value[7] === "-" &&
    value[10] === "T" &&
    value[13] === ":" &&
    value[16] === ":" &&
    (style !== "spec" || value[19] === "Z") &&
    (sign === "+" || sign === "-") &&
    value[offsetAt + 3] === ":";
  if (!separatorsFit) return Number.NaN;
  // digitsAt gives -1 where a character is not a digit 0–9.
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  const offsetHours = digitsAt(value, offsetAt + 1, 2);
  const offsetMinutes = digitsAt(value, offsetAt + 4, 2);
  if (year < 0 || !isRealDate(year, month, day) || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return Number.NaN;
  if (offsetHours < 0 || offsetMinutes < 0 || offsetMinutes > 59 || offsetHours * 60 + offsetMinutes > maxOffsetMinutes) return Number.NaN;
  const offset = (sign === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  return wallMillisOf(year, month, day, hour, minute, second) - offset * minuteMs;
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

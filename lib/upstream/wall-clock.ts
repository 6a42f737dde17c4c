// Calendar arithmetic on wall-clock millis: the milliseconds a local date and time would have if read as UTC
// (proleptic Gregorian, as Date.UTC and luxon count). Mapping places and formats millions of date-times; these
// few integer steps replace a luxon DateTime (and its garbage) per value.

export const minuteMs = 60_000;
export const dayMs = 86_400_000;

/** The number an ASCII digit run of `length` at `start` spells, or -1 if any of them is not a digit 0–9. */
export function digitsAt(text: string, start: number, length: number): number {
  let value = 0;
  for (let index = start; index < start + length; index++) {
    const code = text.charCodeAt(index);
    if (!(code >= 48 && code <= 57)) return -1;
    value = value * 10 + (code - 48);
  }
  return value;
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** True when month 1–12 and day exist in that year (2024-02-29 does, 2025-02-29 does not). */
export function isRealDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : monthDays[month - 1]!);
}

// Days from 1970-01-01 to a date and back, by whole 400-year eras (H. Hinnant's civil-days algorithms).
function daysOf(year: number, month: number, day: number): number {
  const shiftedYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(shiftedYear / 400);
  const yearOfEra = shiftedYear - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** Wall-clock millis of a local date and time (whole seconds). */
export function wallMillisOf(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  return daysOf(year, month, day) * dayMs + hour * 3_600_000 + minute * minuteMs + second * 1000;
}

const twoDigits = Array.from({ length: 100 }, (_, value) => String(value).padStart(2, "0"));
const pad2 = (value: number) => twoDigits[value] ?? String(value);

// As luxon's padStart(year, 4): "0042", "-0001", "12345".
function yearText(year: number): string {
  if (year < 0) return `-${String(-year).padStart(4, "0")}`;
  return year >= 1000 ? String(year) : String(year).padStart(4, "0");
}

// `YYYY-MM-DD` of a day counted from 1970-01-01.
function dateTextOfDay(days: number): string {
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${yearText(year)}-${pad2(month)}-${pad2(day)}`;
}

/** `YYYY-MM-DD` of wall-clock millis. */
export function wallDateText(wallMillis: number): string {
  return dateTextOfDay(Math.floor(wallMillis / dayMs));
}

/** `HH:MM` of wall-clock millis. */
export function wallHourMinuteText(wallMillis: number): string {
  const minuteOfDay = Math.floor((wallMillis - Math.floor(wallMillis / dayMs) * dayMs) / minuteMs);
  return `${pad2(Math.floor(minuteOfDay / 60))}:${pad2(minuteOfDay % 60)}`;
}

/** `YYYY-MM-DD` + separator + `HH:MM:SS` of wall-clock millis. */
export function wallDateTimeText(wallMillis: number, separator: string): string {
  const days = Math.floor(wallMillis / dayMs);
  const secondOfDay = Math.floor((wallMillis - days * dayMs) / 1000);
  const clock = `${pad2(Math.floor(secondOfDay / 3600))}:${pad2(Math.floor(secondOfDay / 60) % 60)}:${pad2(secondOfDay % 60)}`;
  return `${dateTextOfDay(days)}${separator}${clock}`;
}

/** `±HH:MM` of an offset in whole minutes, as luxon's "ZZ" writes it (zero is `+00:00`). */
export function offsetText(offsetMinutes: number): string {
  const size = Math.abs(offsetMinutes);
  return `${offsetMinutes < 0 ? "-" : "+"}${pad2(Math.trunc(size / 60))}:${pad2(size % 60)}`;
}

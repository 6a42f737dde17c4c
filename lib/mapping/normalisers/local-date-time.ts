import { DateTime, Settings, type Zone } from "luxon";
import { cachedZone } from "@/lib/upstream/cached-zone";
import { formatInstantAt, formatLocalDate, formatUpstreamDateTime, isTimeZone, type DateTimeStyle } from "@/lib/upstream/formats";
import { dayMs, digitsAt, isRealDate, minuteMs, offsetText, wallDateText, wallHourMinuteText, wallMillisOf } from "@/lib/upstream/wall-clock";
import { errorIssue, shownOriginal, warningIssue } from "../issues";
import { normalised, type Normalised } from "./normalised";

/** A source wall time placed in the location's zone. */
export interface PlacedDateTime {
  /** The payload form (formatUpstreamDateTime). */
  dateTime: string;
  /** Milliseconds since the epoch, for comparing start and end. */
  instant: number;
  /** The location's calendar date of the time sent, `YYYY-MM-DD`. */
  localDate: string;
}

interface Location {
  timeZone: string;
  dateTimeStyle: DateTimeStyle;
}

/**
 * "YYYY-MM-DD HH:MM:SS" as a timestamp without time zone prints; a T, missing seconds and fractions are tolerated
 * (/^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/, read by position). Its wall-clock millis, or
 * undefined when it is no such text or no real date and time.
 */
function wallTimeMillis(text: string): number | undefined {
  const length = text.length;
  const hasSeconds = length > 16;
  const separatorsFit =
    length >= 16 &&
    text[4] === "-" &&
    text[7] === "-" &&
    (text[10] === " " || text[10] === "T") &&
    text[13] === ":" &&
    (!hasSeconds || (length >= 19 && text[16] === ":")) &&
    (length <= 19 || (length > 20 && text[19] === "."));
  if (!separatorsFit) return undefined;
  // digitsAt gives -1 where a character is not a digit 0–9.
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = hasSeconds ? digitsAt(text, 17, 2) : 0;
  if (year < 0 || hour < 0 || minute < 0 || second < 0 || (length > 20 && digitsAt(text, 20, length - 20) < 0)) return undefined;
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  return wallMillisOf(year, month, day, hour, minute, second);
}

/**
 * A local wall time of the location → the upstream date-time. Required wherever it is used, so a missing or unreadable
 * value is an error. A time skipped by a clock change is moved forward by the gap, a time that occurs twice takes the
 * earlier instant; both with a warning.
 */
export function normaliseLocalDateTime(value: string | null | undefined, field: string, location: Location): Normalised<PlacedDateTime> {
  if (!isTimeZone(location.timeZone)) throw new RangeError(`unknown IANA time zone: ${location.timeZone}`);
  const text = typeof value === "string" ? value.trim() : "";
  if (typeof value !== "string" || text === "")
    return normalised<PlacedDateTime>(undefined, errorIssue(field, "missing_date_time", "is missing", shownOriginal(value)));
  const wallMillis = wallTimeMillis(text);
  if (wallMillis === undefined) {
    return normalised<PlacedDateTime>(
      undefined,
      errorIssue(field, "invalid_date_time", "is not a local date-time YYYY-MM-DD HH:MM:SS", shownOriginal(value)),
    );
  }
  const plain = placePlainWallTime(text, wallMillis, location);
  if (plain !== undefined) return normalised(plain);
  try {
    return placeWallTime(value, text, wallMillis, field, location);
  } catch (error) {
    if (error !== needsLuxon) throw error;
    return placeWithLuxon(value, text, field, location);
  }
}

// Thrown when a zone's offset is not in whole minutes (local mean time, before standard time): luxon then places the
// value itself, since its arithmetic in fractions of a minute is not repeated here.
const needsLuxon = new Error("offset in fractions of a minute");

/** A luxon DateTime in a zone, as its two fields: the instant (ts) and the offset it was built with (o). */
interface Reading {
  ts: number;
  o: number;
}

function offsetAt(zone: Zone, ts: number): number {
  const offset = zone.offset(ts);
  if (!Number.isInteger(offset)) throw needsLuxon;
  return offset;
}

// Luxon's fixOffset: the instant of a wall time from a guessed offset; in a gap, the wall time moved by the gap.
function fixOffset(wallMillis: number, guess: number, zone: Zone): Reading {
  let utcGuess = wallMillis - guess * minuteMs;
  const offset = offsetAt(zone, utcGuess);
  if (offset === guess) return { ts: utcGuess, o: guess };
  utcGuess -= (offset - guess) * minuteMs;
  const offsetThen = offsetAt(zone, utcGuess);
  if (offset === offsetThen) return { ts: utcGuess, o: offset };
  return { ts: wallMillis - Math.min(offset, offsetThen) * minuteMs, o: Math.max(offset, offsetThen) };
}

/**
 * Luxon's getPossibleOffsets, sorted by instant: both readings of a wall time that occurs twice, or the one reading.
 * Luxon also compares the two readings' times of day, which in whole minutes are always equal (both are the wall time).
 */
function possibleReadings(reading: Reading, zone: Zone): [Reading] | [Reading, Reading] {
  const wallMillis = reading.ts + reading.o * minuteMs;
  const earlier = offsetAt(zone, wallMillis - dayMs);
  const later = offsetAt(zone, wallMillis + dayMs);
  const first = offsetAt(zone, wallMillis - earlier * minuteMs);
  const second = offsetAt(zone, wallMillis - later * minuteMs);
  if (first === second) return [reading];
  // Luxon clones the DateTime at each instant: the offset is looked up again, unless the instant is unchanged.
  const readingAt = (ts: number): Reading => (ts === reading.ts ? reading : { ts, o: offsetAt(zone, ts) });
  const [one, other] = [readingAt(wallMillis - first * minuteMs), readingAt(wallMillis - second * minuteMs)];
  return other.ts < one.ts ? [other, one] : [one, other];
}

// `Z±HH:MM` (spec) or `±HH:MM` (RFC 3339) of an offset, by style: a few offsets come up millions of times.
const offsetSuffixes = { spec: new Map<number, string>(), rfc3339: new Map<number, string>() };

function offsetSuffix(offset: number, style: DateTimeStyle): string {
  const suffixes = offsetSuffixes[style];
  let suffix = suffixes.get(offset);
  if (suffix === undefined) {
    suffix = `${style === "spec" ? "Z" : ""}${offsetText(offset)}`;
    suffixes.set(offset, suffix);
  }
  return suffix;
}

/**
 * placeWallTime for the common wall time, a day or more from a clock change, in its fewest steps: the same offset
 * lookups up to the point where the wall time is known to have one reading, at the zone's offset O (fixOffset lands on
 * O, and the offsets a day either side agree, so possibleReadings finds no second one). It is then sent as written: its
 * date and time from the text (a four-digit year, so wallDateTimeText would print the same), then O. Undefined for
 * every other wall time, which placeWallTime places.
 */
function placePlainWallTime(text: string, wallMillis: number, location: Location): PlacedDateTime | undefined {
  const zone = cachedZone(location.timeZone);
  const guess = zone.offset(Settings.now());
  const offset = zone.offset(wallMillis - guess * minuteMs);
  if (!Number.isInteger(guess) || !Number.isInteger(offset)) return undefined;
  if (offset !== guess && zone.offset(wallMillis - offset * minuteMs) !== offset) return undefined;
  const dayBefore = zone.offset(wallMillis - dayMs);
  if (!Number.isInteger(dayBefore) || zone.offset(wallMillis + dayMs) !== dayBefore) return undefined;
  const localDate = text.slice(0, 10);
  const clock = text.length === 16 ? `${text.slice(11, 16)}:00` : text.slice(11, 19);
  return { dateTime: `${localDate}T${clock}${offsetSuffix(offset, location.dateTimeStyle)}`, instant: wallMillis - offset * minuteMs, localDate };
}

// The steps of placeWithLuxon on plain numbers, offset lookup for offset lookup (the zone's memoised offsets).
function placeWallTime(value: string, text: string, wallMillis: number, field: string, location: Location): Normalised<PlacedDateTime> {
  const zone = cachedZone(location.timeZone);
  // DateTime.fromISO guesses the zone's offset now, then fixes it.
  const readings = possibleReadings(fixOffset(wallMillis, offsetAt(zone, Settings.now()), zone), zone);
  const [placed] = readings;
  const result = formatInstantAt(placed.ts, location.timeZone, location.dateTimeStyle);
  const placedWallMillis = placed.ts + placed.o * minuteMs;
  if (placedWallMillis !== wallMillis) {
    const date = text.slice(0, 10);
    const time = wallHourMinuteText(placedWallMillis);
    const sentAs = result.localDate === date ? time : `${wallDateText(placedWallMillis)} ${time}`;
    const reason = `does not exist in ${location.timeZone} (clock change); sent as ${sentAs}`;
    return normalised(result, warningIssue(field, "nonexistent_local_time", reason, shownOriginal(value)));
  }
  // Luxon asks again for the reading taken; a lone reading is the one just asked about.
  if (readings.length > 1 && possibleReadings(placed, zone).length > 1) {
    const offset = offsetText(offsetAt(zone, placed.ts));
    const reason = `occurs twice in ${location.timeZone} (clock change); sent as the earlier one, UTC${offset}`;
    return normalised(result, warningIssue(field, "ambiguous_local_time", reason, shownOriginal(value)));
  }
  return normalised(result);
}

// The luxon original, for zones whose offsets then were not whole minutes.
function placeWithLuxon(value: string, text: string, field: string, location: Location): Normalised<PlacedDateTime> {
  const date = text.slice(0, 10);
  const wallTime = `${date}T${text.slice(11, 13)}:${text.slice(14, 16)}:${text.length > 16 ? text.slice(17, 19) : "00"}`;
  // Luxon moves a skipped time forward by the gap; of the two readings of a repeated time, the earlier is taken.
  const [placed] = DateTime.fromISO(wallTime, { zone: cachedZone(location.timeZone) })
    .getPossibleOffsets()
    .sort((first, second) => first.toMillis() - second.toMillis());
  if (placed === undefined || !placed.isValid) {
    return normalised<PlacedDateTime>(
      undefined,
      errorIssue(field, "invalid_date_time", "cannot be placed in the location's time zone", shownOriginal(value)),
    );
  }
  const instant = placed.toMillis();
  const result = {
    dateTime: formatUpstreamDateTime(instant, location.timeZone, location.dateTimeStyle),
    instant,
    localDate: formatLocalDate(instant, location.timeZone),
  };
  const issues = [];
  if (placed.toFormat("yyyy-MM-dd'T'HH:mm:ss") !== wallTime) {
    // A whole skipped day (Pacific/Apia, 2011-12-30) moves the date too.
    const sentAs = placed.toFormat(result.localDate === date ? "HH:mm" : "yyyy-MM-dd HH:mm");
    issues.push(
      warningIssue(field, "nonexistent_local_time", `does not exist in ${location.timeZone} (clock change); sent as ${sentAs}`, shownOriginal(value)),
    );
  } else if (placed.getPossibleOffsets().length > 1) {
    issues.push(
      warningIssue(
        field,
        "ambiguous_local_time",
        `occurs twice in ${location.timeZone} (clock change); sent as the earlier one, UTC${placed.toFormat("ZZ")}`,
        shownOriginal(value),
      ),
    );
  }
  return normalised(result, ...issues);
}

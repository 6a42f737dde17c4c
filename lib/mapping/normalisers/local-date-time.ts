import { DateTime } from "luxon";
import { cachedZone } from "@/lib/upstream/cached-zone";
import { formatLocalDate, formatUpstreamDateTime, isLocalDate, isTimeZone, type DateTimeStyle } from "@/lib/upstream/formats";
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

// "YYYY-MM-DD HH:MM:SS" as a timestamp without time zone prints; a T, missing seconds and fractions are tolerated.
const wallTimePattern = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/**
 * A local wall time of the location → the upstream date-time. Required wherever it is used, so a missing or unreadable
 * value is an error. A time skipped by a clock change is moved forward by the gap, a time that occurs twice takes the
 * earlier instant; both with a warning.
 */
export function normaliseLocalDateTime(
  value: string | null | undefined,
  field: string,
  location: { timeZone: string; dateTimeStyle: DateTimeStyle },
): Normalised<PlacedDateTime> {
  if (!isTimeZone(location.timeZone)) throw new RangeError(`unknown IANA time zone: ${location.timeZone}`);
  const text = typeof value === "string" ? value.trim() : "";
  if (text === "") return normalised<PlacedDateTime>(undefined, errorIssue(field, "missing_date_time", "is missing", shownOriginal(value)));
  const match = wallTimePattern.exec(text);
  const [, date = "", hour = "", minute = "", second = "00"] = match ?? [];
  if (!match || !isLocalDate(date) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) {
    return normalised<PlacedDateTime>(
      undefined,
      errorIssue(field, "invalid_date_time", "is not a local date-time YYYY-MM-DD HH:MM:SS", shownOriginal(value)),
    );
  }
  const wallTime = `${date}T${hour}:${minute}:${second}`;
  // Luxon moves a skipped time forward by the gap; of the two readings of a repeated time, the earlier is taken.
  const [placed] = DateTime.fromISO(wallTime, { zone: cachedZone(location.timeZone) })
    .getPossibleOffsets()
    .sort((first, second) => first.toMillis() - second.toMillis());
  if (placed === undefined || !placed.isValid) {
    return normalised<PlacedDateTime>(undefined, errorIssue(field, "invalid_date_time", "cannot be placed in the location's time zone", shownOriginal(value)));
  }
  const instant = placed.toMillis();
  const result = { dateTime: formatUpstreamDateTime(instant, location.timeZone, location.dateTimeStyle), instant, localDate: formatLocalDate(instant, location.timeZone) };
  const issues = [];
  if (placed.toFormat("yyyy-MM-dd'T'HH:mm:ss") !== wallTime) {
    // A whole skipped day (Pacific/Apia, 2011-12-30) moves the date too.
    const sentAs = placed.toFormat(result.localDate === date ? "HH:mm" : "yyyy-MM-dd HH:mm");
    issues.push(warningIssue(field, "nonexistent_local_time", `does not exist in ${location.timeZone} (clock change); sent as ${sentAs}`, shownOriginal(value)));
  } else if (placed.getPossibleOffsets().length > 1) {
    issues.push(warningIssue(field, "ambiguous_local_time", `occurs twice in ${location.timeZone} (clock change); sent as the earlier one, UTC${placed.toFormat("ZZ")}`, shownOriginal(value)));
  }
  return normalised(result, ...issues);
}

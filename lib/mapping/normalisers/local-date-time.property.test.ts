import fc from "fast-check";
import { DateTime, IANAZone, Settings } from "luxon";
import { describe, expect, test } from "vitest";
import { cachedZone } from "@/lib/upstream/cached-zone";
import { isTimeZone, type DateTimeStyle } from "@/lib/upstream/formats";
import {
  arbitraryInstant,
  arbitraryZone,
  luxonFormatLocalDate,
  luxonFormatUpstreamDateTime,
  luxonIsLocalDate,
  trickyZones,
  zoneTransitions,
} from "@/lib/upstream/testing/luxon-formats";
import { errorIssue, shownOriginal, warningIssue } from "../issues";
import { normaliseLocalDateTime, type PlacedDateTime } from "./local-date-time";
import { normalised, type Normalised } from "./normalised";

// The luxon implementation this arithmetic replaced, as it was: the reference.
const wallTimePattern = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

function luxonNormaliseLocalDateTime(
  value: string | null | undefined,
  field: string,
  location: { timeZone: string; dateTimeStyle: DateTimeStyle },
): Normalised<PlacedDateTime> {
  if (!isTimeZone(location.timeZone)) throw new RangeError(`unknown IANA time zone: ${location.timeZone}`);
  const text = typeof value === "string" ? value.trim() : "";
  if (text === "") return normalised<PlacedDateTime>(undefined, errorIssue(field, "missing_date_time", "is missing", shownOriginal(value)));
  const match = wallTimePattern.exec(text);
  const [, date = "", hour = "", minute = "", second = "00"] = match ?? [];
  if (!match || !luxonIsLocalDate(date) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) {
    return normalised<PlacedDateTime>(
      undefined,
      errorIssue(field, "invalid_date_time", "is not a local date-time YYYY-MM-DD HH:MM:SS", shownOriginal(value)),
    );
  }
  const wallTime = `${date}T${hour}:${minute}:${second}`;
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
    dateTime: luxonFormatUpstreamDateTime(instant, location.timeZone, location.dateTimeStyle),
    instant,
    localDate: luxonFormatLocalDate(instant, location.timeZone),
  };
  const issues = [];
  if (placed.toFormat("yyyy-MM-dd'T'HH:mm:ss") !== wallTime) {
    const sentAs = placed.toFormat(result.localDate === date ? "HH:mm" : "yyyy-MM-dd HH:mm");
    issues.push(
      warningIssue(field, "nonexistent_local_time", `does not exist in ${location.timeZone} (clock change); sent as ${sentAs}`, shownOriginal(value)),
    );
  } else if (placed.getPossibleOffsets().length > 1) {
    const reason = `occurs twice in ${location.timeZone} (clock change); sent as the earlier one, UTC${placed.toFormat("ZZ")}`;
    issues.push(warningIssue(field, "ambiguous_local_time", reason, shownOriginal(value)));
  }
  return normalised(result, ...issues);
}

const styles: DateTimeStyle[] = ["spec", "rfc3339"];
const numRuns = 3000;
const pad = (value: number, width: number) => String(value).padStart(width, "0");

// Wall-clock millis (a local time read as UTC) as the source prints them, in the variants the pattern tolerates.
const wallTimeText = (wallMillis: number, separator: string, form: "seconds" | "minutes" | "fraction") => {
  const iso = new Date(wallMillis).toISOString();
  const text = `${iso.slice(0, 10)}${separator}${iso.slice(11, 19)}`;
  return form === "minutes" ? text.slice(0, 16) : form === "fraction" ? `${text}.${iso.slice(20, 23)}` : text;
};
const textForm = fc.tuple(
  fc.constantFrom(" ", "T"),
  fc.constantFrom("seconds", "seconds", "minutes", "fraction") as fc.Arbitrary<"seconds" | "minutes" | "fraction">,
);

// Wall times around a clock change: from `hours` before the change on the old offset to `hours` after it on the new
// one. Within hours, skipped and repeated times come up often; within days, the edges of the plain path (a day away).
const wallTimeAroundChange = (hours: number) =>
  fc
    .tuple(arbitraryZone, fc.nat(), fc.integer({ min: -hours * 3_600, max: hours * 3_600 }), textForm)
    .map(([zone, pick, seconds, [separator, form]]) => {
      const transitions = zoneTransitions(zone);
      const change = transitions.length === 0 ? Date.UTC(2026, 2, 29) : transitions[pick % transitions.length]!;
      const offsetBefore = IANAZone.create(zone).offset(change - 1);
      const wallMillis = Math.floor((change + offsetBefore * 60_000) / 1000) * 1000 + seconds * 1000;
      return [zone, wallTimeText(wallMillis, separator, form)] as const;
    });
const wallTimeNearChange = wallTimeAroundChange(4);
const wallTimeDaysFromChange = wallTimeAroundChange(60);

const wallTimeAnyDay = fc
  .tuple(arbitraryZone, arbitraryInstant, textForm)
  .map(([zone, wallMillis, [separator, form]]) => [zone, wallTimeText(wallMillis, separator, form)] as const);

// Near misses: impossible dates and times, years 0000–9999, stray characters, blanks, nothing at all.
const messyWallTime = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 25 }),
      fc.integer({ min: 0, max: 61 }),
      fc.integer({ min: 0, max: 61 }),
    )
    .map(
      ([year, month, day, hour, minute, second]) =>
        `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)} ${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}`,
    ),
  fc
    .tuple(wallTimeAnyDay, fc.nat(), fc.constantFrom("", "0", "9", "-", ":", " ", "T", ".", "Z", "+02", "٣", "\t", "\n", "x"), fc.boolean())
    .map(([[, text], at, character, replace]) => {
      const index = at % (text.length + 1);
      return text.slice(0, index) + character + text.slice(replace ? index + 1 : index);
    }),
  wallTimeAnyDay.map(([, text]) => ` ${text}\t`),
  fc.stringMatching(/^[0-9 :T.-]{0,24}$/),
  fc.string(),
  fc.constantFrom(null, undefined, "", "   ", "2025-02-29 10:00:00", "2024-02-29 10:00:00", "1900-02-29 10:00:00", "2000-02-29 10:00:00"),
  fc.constantFrom("0000-01-01 00:00:00", "9999-12-31 23:59:59", "2011-12-30 12:00:00", "1994-12-31 12:00:00"),
);

function expectSamePlacement(value: string | null | undefined, timeZone: string): void {
  for (const dateTimeStyle of styles) {
    const location = { timeZone, dateTimeStyle };
    const placed = normaliseLocalDateTime(value, "start_at", location);
    const reference = luxonNormaliseLocalDateTime(value, "start_at", location);
    expect(placed).toStrictEqual(reference);
    // Byte for byte, key order included: the preview stores these as JSON.
    expect(JSON.stringify(placed)).toBe(JSON.stringify(reference));
  }
}

describe("normaliseLocalDateTime places every wall time as luxon did", () => {
  test("on any day 1900–2100, in the tricky zones", () => {
    fc.assert(
      fc.property(wallTimeAnyDay, ([zone, text]) => expectSamePlacement(text, zone)),
      { numRuns },
    );
  });

  test("around clock changes: gaps, overlaps, skipped days and offsets in seconds", () => {
    fc.assert(
      fc.property(wallTimeNearChange, ([zone, text]) => expectSamePlacement(text, zone)),
      { numRuns: numRuns * 2 },
    );
  });

  test("a day or two from clock changes, where the plain path gives way to the full one", () => {
    fc.assert(
      fc.property(wallTimeDaysFromChange, ([zone, text]) => expectSamePlacement(text, zone)),
      { numRuns },
    );
  });

  test("whatever luxon's clock says (its first guess of the offset is the zone's offset now)", () => {
    const now = Settings.now;
    try {
      fc.assert(
        fc.property(fc.oneof(wallTimeNearChange, wallTimeDaysFromChange, wallTimeAnyDay), arbitraryInstant, ([zone, text], today) => {
          Settings.now = () => today;
          expectSamePlacement(text, zone);
        }),
        { numRuns },
      );
    } finally {
      Settings.now = now;
    }
  });

  test("for messy and impossible values", () => {
    fc.assert(
      fc.property(messyWallTime, fc.constantFrom(...trickyZones), (value, zone) => expectSamePlacement(value, zone)),
      { numRuns },
    );
  });

  test("refuses an unknown zone as luxon did", () => {
    expect(() => normaliseLocalDateTime("2026-01-15 10:00:00", "start_at", { timeZone: "Mars/Olympus", dateTimeStyle: "spec" })).toThrow(
      "unknown IANA time zone: Mars/Olympus",
    );
  });
});

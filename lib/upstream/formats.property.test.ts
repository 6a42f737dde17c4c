import fc from "fast-check";
import { Settings } from "luxon";
import { describe, expect, test } from "vitest";
import {
  describeDateTimeProblem,
  formatInstantAt,
  formatLocalDate,
  formatUpstreamDateTime,
  isLocalDate,
  upstreamDateTimeMillis,
  type DateTimeStyle,
} from "./formats";
import {
  arbitraryInstant,
  arbitraryZone,
  arbitraryZoneAndInstantNearChange,
  luxonFormatLocalDate,
  luxonFormatUpstreamDateTime,
  luxonIsLocalDate,
  regexDescribeDateTimeProblem,
} from "./testing/luxon-formats";

const styles: DateTimeStyle[] = ["spec", "rfc3339"];
const numRuns = 3000;
const pad = (value: number, width: number) => String(value).padStart(width, "0");

/** What a call returns, or the error it throws (so a refusal must match too). */
function outcome<T>(run: () => T): { value: T } | { error: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

function expectSameFormats(instant: Date | number, zone: string): void {
  for (const style of styles) {
    expect(outcome(() => formatUpstreamDateTime(instant, zone, style))).toEqual(outcome(() => luxonFormatUpstreamDateTime(instant, zone, style)));
  }
  expect(outcome(() => formatLocalDate(instant, zone))).toEqual(outcome(() => luxonFormatLocalDate(instant, zone)));
}

// Instants with milliseconds (cut from the form), fractions of a millisecond, and ones at the ends of time.
const oddInstant = fc.oneof(
  arbitraryInstant.map((millis) => millis + 0.5),
  fc.double({ min: -8.64e15, max: 8.64e15, noNaN: true }),
  fc.constantFrom(
    -8.64e15,
    8.64e15,
    -8.64e15 + 86_400_000,
    8.64e15 - 86_400_000,
    -62_167_219_200_000,
    253_402_300_799_999,
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ),
);

describe("formatUpstreamDateTime and formatLocalDate write what luxon wrote", () => {
  test("at any instant 1900–2100, in both styles", () => {
    fc.assert(
      fc.property(arbitraryInstant, arbitraryZone, (instant, zone) => expectSameFormats(instant, zone)),
      { numRuns },
    );
  });

  test("next to clock changes, including offsets in seconds and skipped days", () => {
    fc.assert(
      fc.property(arbitraryZoneAndInstantNearChange, ([zone, instant]) => expectSameFormats(instant, zone)),
      { numRuns },
    );
  });

  test("for Dates, milliseconds, fractions, the ends of time and invalid instants", () => {
    fc.assert(
      fc.property(oddInstant, arbitraryZone, fc.boolean(), (instant, zone, asDate) => expectSameFormats(asDate ? new Date(instant) : instant, zone)),
      { numRuns },
    );
  });

  test("formatInstantAt is both of them at once", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          arbitraryInstant,
          arbitraryZoneAndInstantNearChange.map(([, instant]) => instant),
          oddInstant,
        ),
        arbitraryZone,
        (instant, zone) => {
          for (const style of styles) {
            const expected = outcome(() => ({
              dateTime: luxonFormatUpstreamDateTime(instant, zone, style),
              instant,
              localDate: luxonFormatLocalDate(instant, zone),
            }));
            expect(outcome(() => formatInstantAt(instant, zone, style))).toEqual(expected);
          }
        },
      ),
      { numRuns },
    );
  });

  test("do not depend on luxon's clock", () => {
    const now = Settings.now;
    try {
      fc.assert(
        fc.property(arbitraryInstant, arbitraryInstant, arbitraryZone, (instant, today, zone) => {
          Settings.now = () => today;
          expectSameFormats(instant, zone);
        }),
        { numRuns: 500 },
      );
    } finally {
      Settings.now = now;
    }
  });
});

// Near misses of the forms: real and unreal dates, times and offsets, with characters swapped, dropped or added.
const digitText = (length: number) => fc.stringMatching(new RegExp(`^[0-9]{${length}}$`));
const dateText = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
    .map(([year, month, day]) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`),
  fc.tuple(digitText(4), digitText(2), digitText(2)).map(([year, month, day]) => `${year}-${month}-${day}`),
);
const clockText = fc
  .tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
  .map(([hour, minute, second]) => `${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}`);
const offsetText = fc
  .tuple(fc.constantFrom("+", "-", "−", "Z", ""), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
  .map(([sign, hours, minutes]) => `${sign}${pad(hours, 2)}:${pad(minutes, 2)}`);
const dateTimeText = fc
  .tuple(dateText, fc.constantFrom("T", " ", "t"), clockText, fc.constantFrom("Z", "", "z"), offsetText)
  .map(([date, separator, clock, zulu, offset]) => `${date}${separator}${clock}${zulu}${offset}`);

function mutated(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    text,
    fc
      .tuple(text, fc.nat(), fc.constantFrom("", "0", "9", "-", ":", "T", "Z", "+", " ", "٣", "x", "\n"), fc.boolean())
      .map(([value, at, character, replace]) => {
        const index = at % (value.length + 1);
        return value.slice(0, index) + character + value.slice(replace ? index + 1 : index);
      }),
    fc.string(),
  );
}

describe("the date and date-time checks decide as the regular expressions and luxon did", () => {
  test("isLocalDate", () => {
    fc.assert(
      fc.property(mutated(dateText), (value) => {
        expect(isLocalDate(value)).toBe(luxonIsLocalDate(value));
      }),
      { numRuns: numRuns * 3 },
    );
  });

  test("describeDateTimeProblem, in both styles", () => {
    fc.assert(
      fc.property(mutated(dateTimeText), (value) => {
        for (const style of styles) expect(describeDateTimeProblem(value, style)).toBe(regexDescribeDateTimeProblem(value, style));
      }),
      { numRuns: numRuns * 3 },
    );
  });

  test("describeDateTimeProblem accepts what formatUpstreamDateTime writes", () => {
    fc.assert(
      fc.property(arbitraryInstant, arbitraryZone, (instant, zone) => {
        for (const style of styles) expect(describeDateTimeProblem(formatUpstreamDateTime(instant, zone, style), style)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  test("upstreamDateTimeMillis reads the instant Date.parse reads, and NaN where describeDateTimeProblem finds a problem", () => {
    fc.assert(
      fc.property(mutated(dateTimeText), (value) => {
        for (const style of styles) {
          const millis = upstreamDateTimeMillis(value, style);
          if (describeDateTimeProblem(value, style) === undefined) expect(millis).toBe(Date.parse(value.replace("Z", "")));
          else expect(millis).toBeNaN();
        }
      }),
      { numRuns: numRuns * 3 },
    );
  });
});

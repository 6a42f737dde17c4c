// The luxon implementation of lib/upstream/formats.ts before it did its arithmetic by hand, kept as the reference the
// property tests compare the arithmetic against (tests only).
import fc from "fast-check";
import { DateTime, IANAZone } from "luxon";
import { cachedZone } from "../cached-zone";
import { isTimeZone, type DateTimeStyle } from "../formats";

const localDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimePattern = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(Z?)([+-])(\d{2}):(\d{2})$/;
const maxOffsetMinutes = 18 * 60;

export function luxonIsLocalDate(value: string): boolean {
  const match = localDatePattern.exec(value);
  if (!match) return false;
  return DateTime.fromObject({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }, { zone: "utc" }).isValid;
}

function zonedDateTime(instant: Date | number, timeZone: string): DateTime {
  if (!isTimeZone(timeZone)) throw new RangeError(`unknown IANA time zone: ${timeZone}`);
  const millis = typeof instant === "number" ? instant : instant.getTime();
  if (!Number.isFinite(millis)) throw new RangeError("invalid instant");
  return DateTime.fromMillis(millis, { zone: cachedZone(timeZone) });
}

export function luxonFormatUpstreamDateTime(instant: Date | number, timeZone: string, style: DateTimeStyle = "spec"): string {
  const local = zonedDateTime(instant, timeZone).set({ millisecond: 0 });
  const wallClock = local.toFormat("yyyy-MM-dd'T'HH:mm:ss");
  const offset = local.toFormat("ZZ");
  return style === "spec" ? `${wallClock}Z${offset}` : `${wallClock}${offset}`;
}

export function luxonFormatLocalDate(instant: Date | number, timeZone: string): string {
  return zonedDateTime(instant, timeZone).toFormat("yyyy-MM-dd");
}

export function regexDescribeDateTimeProblem(value: string, style: DateTimeStyle = "spec"): string | undefined {
  const match = dateTimePattern.exec(value);
  const expected = style === "spec" ? "YYYY-MM-DDTHH:MM:SSZ±HH:MM" : "YYYY-MM-DDTHH:MM:SS±HH:MM";
  if (!match) return `must be a date-time ${expected}`;
  const [, date, hour, minute, second, zulu, , offsetHours, offsetMinutes] = match;
  if ((style === "spec") !== (zulu === "Z")) return `must be a date-time ${expected}`;
  if (!luxonIsLocalDate(date!)) return "must be a real calendar date";
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return "must be a real time of day";
  if (Number(offsetMinutes) > 59 || Number(offsetHours) * 60 + Number(offsetMinutes) > maxOffsetMinutes) {
    return "must have a UTC offset between -18:00 and +18:00";
  }
  return undefined;
}

/**
 * Zones with every kind of oddity: DST both ways, half- and quarter-hour offsets, a 30-minute DST (Lord Howe), skipped
 * days (Apia 2011, Kiritimati 1994, Kwajalein 1993), offsets in seconds long after 1900 (Monrovia until 1972, Dublin
 * 1916, Riyadh 1947, Caracas), two-hour DST (Troll), Ramadan pauses (Casablanca) and fixed ones.
 */
export const trickyZones = [
  "Europe/Berlin",
  "Europe/Amsterdam",
  "Europe/Dublin",
  "Europe/London",
  "Europe/Moscow",
  "America/New_York",
  "America/St_Johns",
  "America/Caracas",
  "America/Sao_Paulo",
  "America/Santiago",
  "America/Adak",
  "Australia/Lord_Howe",
  "Australia/Sydney",
  "Asia/Kathmandu",
  "Asia/Kolkata",
  "Asia/Riyadh",
  "Asia/Tehran",
  "Asia/Pyongyang",
  "Pacific/Chatham",
  "Pacific/Apia",
  "Pacific/Kiritimati",
  "Pacific/Kwajalein",
  "Africa/Monrovia",
  "Africa/Casablanca",
  "Antarctica/Troll",
  "UTC",
  "Etc/GMT+12",
] as const;

const startMillis = Date.UTC(1900, 0, 1);
const endMillis = Date.UTC(2100, 0, 1);
const weekMs = 7 * 86_400_000;

// The instants where the zone's offset changes, 1900–2100, found by a weekly scan and bisection to the millisecond.
function transitionsOf(name: string): number[] {
  const zone = IANAZone.create(name);
  const found: number[] = [];
  let offset = zone.offset(startMillis);
  for (let from = startMillis; from < endMillis; from += weekMs) {
    const offsetThen = zone.offset(from + weekMs);
    if (offset === offsetThen) continue;
    offset = offsetThen;
    let [before, after] = [from, from + weekMs];
    while (after - before > 1) {
      const middle = Math.floor((before + after) / 2);
      if (zone.offset(middle) === zone.offset(before)) before = middle;
      else after = middle;
    }
    found.push(after);
  }
  return found;
}

const transitionsByZone = new Map<string, number[]>();

/** The clock changes of a zone between 1900 and 2100 (computed once per zone). */
export function zoneTransitions(name: string): number[] {
  let transitions = transitionsByZone.get(name);
  if (transitions === undefined) {
    transitions = transitionsOf(name);
    transitionsByZone.set(name, transitions);
  }
  return transitions;
}

export const arbitraryZone = fc.constantFrom(...trickyZones);

/** A whole-millisecond instant 1900–2100. */
export const arbitraryInstant = fc.integer({ min: startMillis, max: endMillis });

/** A zone and an instant within hours (or a day) of one of its clock changes (or anywhere, for a zone without any). */
export const arbitraryZoneAndInstantNearChange = fc
  .tuple(
    arbitraryZone,
    fc.nat(),
    fc.oneof(fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 }), fc.integer({ min: -86_400_000, max: 86_400_000 })),
  )
  .map(([zone, pick, delta]) => {
    const transitions = zoneTransitions(zone);
    const base = transitions.length === 0 ? startMillis + (pick % (endMillis - startMillis)) : transitions[pick % transitions.length]!;
    return [zone, base + delta] as const;
  });

// Local wall-clock times as plain numbers: milliseconds of a "naive" clock that reads like UTC.
// The source stores them without a zone, so the generator does calendar arithmetic without one too.
import { IANAZone } from "luxon";

export const minuteMs = 60_000;
export const hourMs = 60 * minuteMs;
export const dayMs = 24 * hourMs;

/** "2024-03-31" → wall time of its midnight. */
export function wallDay(isoDate: string): number {
  const ms = Date.parse(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new Error(`not a date: ${isoDate}`);
  return ms;
}

/** "YYYY-MM-DD HH:MM:SS", the text form of a timestamp without time zone. */
export function formatWallTime(wall: number): string {
  return new Date(wall).toISOString().slice(0, 19).replace("T", " ");
}

/** 1 = Monday … 7 = Sunday. */
export function isoWeekday(wall: number): number {
  return new Date(wall).getUTCDay() || 7;
}

/**
 * For every DST change of `timeZone` between two wall days: the wall time half an hour into the
 * hour that the change skips (spring: does not exist) or repeats (autumn: happens twice).
 */
export function daylightSavingOddTimes(timeZone: string, fromWall: number, toWall: number): number[] {
  const zone = IANAZone.create(timeZone);
  if (!zone.isValid) throw new Error(`unknown time zone: ${timeZone}`);
  const oddTimes: number[] = [];
  for (let day = fromWall; day < toWall; day += dayMs) {
    // The instant of local midnight is close enough to scan that day hour by hour.
    const dayStart = day - zone.offset(day) * minuteMs;
    if (zone.offset(dayStart) === zone.offset(dayStart + dayMs)) continue;
    for (let instant = dayStart; instant < dayStart + dayMs; instant += hourMs) {
      const before = zone.offset(instant);
      const after = zone.offset(instant + hourMs);
      if (before === after) continue;
      // Both readings of the change instant: the odd hour lies between them.
      const change = instant + hourMs;
      oddTimes.push(Math.min(change + before * minuteMs, change + after * minuteMs) + 30 * minuteMs);
      break;
    }
  }
  return oddTimes;
}

import { DateTime } from "luxon";

/**
 * The next daily run at `syncTime` (HH:MM, local) in `timeZone`, strictly after `now`.
 * On a spring-forward day a wall time that does not exist moves forward by the gap (luxon's rule).
 */
export function nextScheduledSync(syncTime: string, timeZone: string, now: Date = new Date()): Date {
  const [hour, minute] = syncTime.split(":").map(Number) as [number, number];
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  let candidate = local.set({ hour, minute, second: 0, millisecond: 0 });
  if (candidate.toMillis() <= now.getTime()) candidate = local.plus({ days: 1 }).set({ hour, minute, second: 0, millisecond: 0 });
  return candidate.toJSDate();
}

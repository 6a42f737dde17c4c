import { DateTime } from "luxon";
import { SYNC_WINDOW } from "@/lib/locations/location-inputs";

/** Spec section 8: text messages are not delivered outside 09:00–19:00 local time, so a manual sync there deserves a warning. */
export function isOutsideSyncWindow(timeZone: string, now: Date = new Date()): boolean {
  const localTime = DateTime.fromJSDate(now, { zone: timeZone }).toFormat("HH:mm");
  return localTime < SYNC_WINDOW.start || localTime >= SYNC_WINDOW.end;
}

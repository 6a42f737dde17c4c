import { DateTime } from "luxon";
import { SYNC_WINDOW } from "@/lib/locations/location-inputs";
import { isOutsideSyncWindow } from "../sync-window";

/**
 * Why a scheduled session must not start at `now` (null when it may): it runs on the local day it was due, inside the
 * 09:00–19:00 window (spec section 8), or not at all. Queued on time, it can still be picked up late: behind a
 * backlog of sessions, a job retried with backoff, or sent again after its worker died. Run then, it would close the
 * upstream session (which releases campaigns) in the middle of the night.
 */
export function lateScheduledStart(session: { scheduledFor: string | null }, timeZone: string, now: Date): string | null {
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  const at = `${local.toISODate()} ${local.toFormat("HH:mm")} (${timeZone})`;
  const window = `between ${SYNC_WINDOW.start} and ${SYNC_WINDOW.end}`;
  if (session.scheduledFor && local.toISODate()! > session.scheduledFor)
    return `Not started: it was due on ${session.scheduledFor} and was picked up on ${at}; a scheduled sync runs on its own day, ${window}. The next one runs as planned.`;
  if (isOutsideSyncWindow(timeZone, now))
    return `Not started: it was picked up on ${at}, outside the hours a scheduled sync runs in (${window}). The next one runs as planned.`;
  return null;
}

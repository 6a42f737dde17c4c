import { nowOf, type OperationContext } from "@/lib/operations/context";
import { requestSyncSession, type RequestSessionResult } from "@/lib/sync/request-session";
import { findDueLocations } from "./due-locations";

/** Requests run side by side: enough to get through thousands of locations due at the same minute. */
const PARALLEL_REQUESTS = 8;

export interface ScheduledRequest {
  locationId: string;
  scheduledFor: string;
  result: RequestSessionResult;
}

export interface ScheduleTick {
  requested: ScheduledRequest[];
  failed: { locationId: string; error: unknown }[];
}

/**
 * One scheduler tick: request today's session of every location that is due at `now`.
 * Safe to run from any number of processes at once: a session is unique per
 * (location, scheduled_for), so a second request for the same local day is answered
 * `already_scheduled`. A location whose request throws does not stop the others.
 */
export async function startDueSyncs(ctx: OperationContext): Promise<ScheduleTick> {
  const { db } = ctx;
  const due = await findDueLocations(db, nowOf(ctx));
  const tick: ScheduleTick = { requested: [], failed: [] };
  let next = 0;
  const requestRemaining = async () => {
    while (next < due.length) {
      const { locationId, localToday } = due[next++]!;
      try {
        const result = await requestSyncSession(ctx, {
          locationId,
          trigger: "schedule",
          requestedByEmail: null,
          scheduledFor: localToday,
        });
        tick.requested.push({ locationId, scheduledFor: localToday, result });
      } catch (error) {
        tick.failed.push({ locationId, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_REQUESTS, due.length) }, requestRemaining));
  return tick;
}

import { sql } from "drizzle-orm";
import { DateTime } from "luxon";
import type { DatabaseOrTransaction } from "@/db/client";
import { syncSessions } from "@/db/schema";

/**
 * The next daily run at `syncTime` (HH:MM, local) in `timeZone`, strictly after `now`; not today once a scheduled
 * session of today's local date exists (`lastScheduledFor`, as the scheduler decides: one per local day), so a sync
 * time moved later after today's run says tomorrow. On a spring-forward day a wall time that does not exist moves
 * forward by the gap (luxon's rule).
 */
export function nextScheduledSync(syncTime: string, timeZone: string, now: Date = new Date(), lastScheduledFor: string | null = null): Date {
  const [hour, minute] = syncTime.split(":").map(Number) as [number, number];
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  let candidate = local.set({ hour, minute, second: 0, millisecond: 0 });
  const ranToday = lastScheduledFor !== null && lastScheduledFor >= local.toISODate()!;
  if (candidate.toMillis() <= now.getTime() || ranToday) candidate = local.plus({ days: 1 }).set({ hour, minute, second: 0, millisecond: 0 });
  return candidate.toJSDate();
}

/** The local date of each location's latest scheduled session (none for a location never run by the schedule). */
export async function lastScheduledDaysOf(db: DatabaseOrTransaction, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ locationId: syncSessions.locationId, day: sql<string>`to_char(max(${syncSessions.scheduledFor}), 'YYYY-MM-DD')` })
    .from(syncSessions)
    .where(
      sql`${syncSessions.locationId} in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) and ${syncSessions.scheduledFor} is not null`,
    )
    .groupBy(syncSessions.locationId);
  return new Map(rows.map((row) => [row.locationId, row.day]));
}

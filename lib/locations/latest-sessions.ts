import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { syncSessions, syncSteps } from "@/db/schema";

/** A location's newest sync session as lists and the owner's page show it. */
export interface LatestSession {
  status: string;
  /** When it ended (or started, while it runs; or was queued). */
  endedAt: Date;
  /** Records its steps left out (invalid or excluded): a success with some reads "Succeeded with N not sent". */
  notSent: number;
}

/** The newest session of each location in `ids` (none for a location that never synced). */
export async function latestSessionsOf(db: DatabaseOrTransaction, ids: readonly string[]): Promise<Map<string, LatestSession>> {
  if (ids.length === 0) return new Map();
  const rows = await db.execute<{ location_id: string; status: string; ended_at: Date | string; not_sent: number | string }>(sql`
    select l.id as location_id, s.status, coalesce(s.finished_at, s.started_at, s.created_at) as ended_at,
      (select coalesce(sum(st.records_invalid + st.records_excluded), 0) from ${syncSteps} st where st.session_id = s.id) as not_sent
    from unnest(array[${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}]::uuid[]) as l(id)
    cross join lateral (
      select id, status, finished_at, started_at, created_at from ${syncSessions} where ${syncSessions.locationId} = l.id order by ${syncSessions.createdAt} desc limit 1
    ) s`);
  return new Map(rows.map((row) => [row.location_id, { status: row.status, endedAt: new Date(row.ended_at), notSent: Number(row.not_sent) }]));
}

import { sql } from "drizzle-orm";
import { visibleLocationCondition } from "@/lib/auth/location-access";
import type { FleetViewer } from "./fleet-inputs";
import { nowOf, type OperationContext } from "@/lib/operations/context";

export const FLEET_CHART_DAYS = 30;

/** Sessions of the current UTC day: ended succeeded or failed today, and in flight now. */
export interface FleetTodayCounts {
  succeeded: number;
  failed: number;
  running: number;
}

export interface FleetDay {
  /** UTC date, YYYY-MM-DD. */
  day: string;
  sessions: number;
  failed: number;
  /** Of sessions that ended that day; null without any. */
  medianDurationMs: number | null;
  p90DurationMs: number | null;
}

export async function countFleetSessionsToday(ctx: OperationContext<FleetViewer>): Promise<FleetTodayCounts> {
  const { db, actor: viewer } = ctx;
  const now = nowOf(ctx);
  const dayStart = sql`date_trunc('day', ${now.toISOString()}::timestamptz at time zone 'UTC') at time zone 'UTC'`;
  // A session ending today was created at most a couple of days ago (the lease keeps it moving): bounded by the created_at index.
  const [row] = await db.execute<{ succeeded: number; failed: number; running: number }>(sql`
    select count(*) filter (where se.status = 'succeeded' and se.finished_at >= ${dayStart})::int as succeeded,
           count(*) filter (where se.status = 'failed' and se.finished_at >= ${dayStart})::int as failed,
           count(*) filter (where se.status in ('queued', 'running'))::int as running
    from sync_sessions se
    where (se.created_at >= ${dayStart} - interval '2 days' or se.status in ('queued', 'running'))
      and ${visibleLocationCondition(viewer, "session.view", sql`se.location_id`)}`);
  return { succeeded: row?.succeeded ?? 0, failed: row?.failed ?? 0, running: row?.running ?? 0 };
}

/** One row per UTC day of the last 30 (today included), days without sessions as zeros. */
export async function listFleetDays(ctx: OperationContext<FleetViewer>): Promise<FleetDay[]> {
  const { db, actor: viewer } = ctx;
  const now = nowOf(ctx);
  const today = sql`(${now.toISOString()}::timestamptz at time zone 'UTC')::date`;
  const rows = await db.execute<{ day: string; sessions: number; failed: number; median_ms: number | null; p90_ms: number | null }>(sql`
    with days as (
      select generate_series(${today} - ${FLEET_CHART_DAYS - 1}::int, ${today}, interval '1 day')::date as day
    ), sessions as (
      select (se.created_at at time zone 'UTC')::date as day, se.status,
             extract(epoch from (se.finished_at - se.started_at)) * 1000 as duration_ms
      from sync_sessions se
      where se.created_at >= (${today} - ${FLEET_CHART_DAYS - 1}::int)::timestamp at time zone 'UTC'
        and ${visibleLocationCondition(viewer, "session.view", sql`se.location_id`)}
    )
    select to_char(d.day, 'YYYY-MM-DD') as day, count(s.status)::int as sessions,
           count(*) filter (where s.status = 'failed')::int as failed,
           percentile_cont(0.5) within group (order by s.duration_ms) as median_ms,
           percentile_cont(0.9) within group (order by s.duration_ms) as p90_ms
    from days d left join sessions s on s.day = d.day
    group by d.day order by d.day`);
  return rows.map((row) => ({
    day: row.day,
    sessions: row.sessions,
    failed: row.failed,
    medianDurationMs: row.median_ms === null ? null : Math.round(Number(row.median_ms)),
    p90DurationMs: row.p90_ms === null ? null : Math.round(Number(row.p90_ms)),
  }));
}

import { sql } from "drizzle-orm";
import { visibleLocationCondition } from "@/lib/auth/location-access";
import type { FleetViewer } from "./fleet-inputs";
import { nowOf, type OperationContext } from "@/lib/operations/context";

export const FLEET_CHART_DAYS = 30;

/**
 * The tiles of the fleet view, each counted as the session list it links to filters: succeeded and failed ended
 * (finished_at) in the current UTC day; running and queued now.
 */
export interface FleetTodayCounts {
  succeeded: number;
  failed: number;
  running: number;
  queued: number;
}

export interface FleetDay {
  /** UTC date, YYYY-MM-DD. */
  day: string;
  /** Sessions created that day (the day's link lists them), and those of them that failed. */
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
  const endedToday = sql`se.finished_at >= ${dayStart} and se.finished_at < ${dayStart} + interval '1 day'`;
  // Two index scans OR-ed: sync_sessions_finished_idx for today's ended, the partial sync_sessions_one_open for those in flight.
  const [row] = await db.execute<{ [key in keyof FleetTodayCounts]: number }>(sql`
    select count(*) filter (where se.status = 'succeeded' and ${endedToday})::int as succeeded,
           count(*) filter (where se.status = 'failed' and ${endedToday})::int as failed,
           count(*) filter (where se.status = 'running')::int as running,
           count(*) filter (where se.status = 'queued')::int as queued
    from sync_sessions se
    where ((${endedToday}) or se.status in ('queued', 'running'))
      and ${visibleLocationCondition(viewer, "session.view", sql`se.location_id`)}`);
  return { succeeded: row?.succeeded ?? 0, failed: row?.failed ?? 0, running: row?.running ?? 0, queued: row?.queued ?? 0 };
}

/** One row per UTC day of the last 30 (today included), days without sessions as zeros. */
export async function listFleetDays(ctx: OperationContext<FleetViewer>): Promise<FleetDay[]> {
  const { db, actor: viewer } = ctx;
  const now = nowOf(ctx);
  const today = sql`(${now.toISOString()}::timestamptz at time zone 'UTC')::date`;
  const since = sql`(${today} - ${FLEET_CHART_DAYS - 1}::int)::timestamp at time zone 'UTC'`;
  const visible = visibleLocationCondition(viewer, "session.view", sql`se.location_id`);
  // Counts by the day a session was created, durations by the day it ended: each read through its own index.
  const rows = await db.execute<{ day: string; sessions: number; failed: number; median_ms: number | null; p90_ms: number | null }>(sql`
    with days as (
      select generate_series(${today} - ${FLEET_CHART_DAYS - 1}::int, ${today}, interval '1 day')::date as day
    ), created as (
      select (se.created_at at time zone 'UTC')::date as day, count(*)::int as sessions,
             count(*) filter (where se.status = 'failed')::int as failed
      from sync_sessions se
      where se.created_at >= ${since} and ${visible}
      group by 1
    ), ended as (
      select (se.finished_at at time zone 'UTC')::date as day,
             percentile_cont(0.5) within group (order by extract(epoch from (se.finished_at - se.started_at)) * 1000) as median_ms,
             percentile_cont(0.9) within group (order by extract(epoch from (se.finished_at - se.started_at)) * 1000) as p90_ms
      from sync_sessions se
      where se.finished_at >= ${since} and se.started_at is not null and ${visible}
      group by 1
    )
    select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(c.sessions, 0) as sessions, coalesce(c.failed, 0) as failed,
           e.median_ms, e.p90_ms
    from days d left join created c on c.day = d.day left join ended e on e.day = d.day
    order by d.day`);
  return rows.map((row) => ({
    day: row.day,
    sessions: row.sessions,
    failed: row.failed,
    medianDurationMs: row.median_ms === null ? null : Math.round(Number(row.median_ms)),
    p90DurationMs: row.p90_ms === null ? null : Math.round(Number(row.p90_ms)),
  }));
}

import { sql, type SQL } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { syncSessionStatus } from "@/db/schema";
import type { MetricFamily } from "./prometheus-text";

/** Upper bounds (seconds) of the histograms' buckets: a step takes seconds to an hour, an HTTP attempt milliseconds to a minute. */
export const STEP_DURATION_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600] as const;
export const ATTEMPT_DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const;

const finishedStatuses = ["succeeded", "failed", "cancelled"] as const;
const inFlightStatuses = syncSessionStatus.enumValues.filter((status) => !(finishedStatuses as readonly string[]).includes(status));

type HistogramRow = { label: string; count: number; sum: number; cumulative: number[] };

/** `count(*) filter (…)` per bucket bound, cumulative; the bounds are our constants, never input. */
function bucketCounts(column: string, bounds: readonly number[]): SQL {
  return sql.raw(`array[${bounds.map((bound) => `count(*) filter (where ${column} <= ${Number(bound)})`).join(", ")}]::float8[]`);
}

function histogram(name: string, help: string, labelName: string, buckets: readonly number[], rows: HistogramRow[]): MetricFamily {
  return {
    name,
    help,
    type: "histogram",
    buckets,
    series: rows.map((row) => ({
      labels: { [labelName]: row.label },
      cumulative: row.cumulative.map(Number),
      sum: Number(row.sum),
      count: Number(row.count),
    })),
  };
}

async function queueFamilies(db: DatabaseOrTransaction): Promise<MetricFamily[]> {
  const [installed] = await queryRows<{ present: boolean }>(db, sql`select to_regclass('pgboss.job') is not null as present`);
  if (!installed?.present) return [];
  const rows = await queryRows<{ name: string; ready: number; active: number; oldest_seconds: number | null }>(
    db,
    sql`select queue.name,
               count(job.id) filter (where job.state in ('created', 'retry') and job.start_after <= now())::float8 as ready,
               count(job.id) filter (where job.state = 'active')::float8 as active,
               extract(epoch from now() - min(job.start_after) filter (where job.state in ('created', 'retry') and job.start_after <= now()))::float8 as oldest_seconds
          from pgboss.queue queue left join pgboss.job job on job.name = queue.name
         group by queue.name order by queue.name`,
  );
  return [
    {
      name: "location_sync_job_queue_depth",
      help: "Jobs due and waiting for a worker, per pg-boss queue.",
      type: "gauge",
      samples: rows.map((row) => ({ labels: { queue: row.name }, value: Number(row.ready) })),
    },
    {
      name: "location_sync_job_queue_active",
      help: "Jobs a worker is running, per pg-boss queue.",
      type: "gauge",
      samples: rows.map((row) => ({ labels: { queue: row.name }, value: Number(row.active) })),
    },
    {
      name: "location_sync_job_queue_oldest_age_seconds",
      help: "How long the oldest due job has waited for a worker (0 when none waits), per pg-boss queue.",
      type: "gauge",
      samples: rows.map((row) => ({ labels: { queue: row.name }, value: Math.max(0, Number(row.oldest_seconds ?? 0)) })),
    },
  ];
}

/**
 * Every metric, computed from the database at scrape time: each web process answers the same numbers, whichever ran
 * the work. Counters count what the database still holds, so a retention prune (lib/retention) lowers them, which
 * Prometheus reads as a counter reset.
 */
export async function collectMetrics(db: DatabaseOrTransaction): Promise<MetricFamily[]> {
  const sessions = await queryRows<{ status: string; count: number }>(
    db,
    sql`select status::text as status, count(*)::float8 as count from sync_sessions group by status`,
  );
  const sessionCount = (status: string) => Number(sessions.find((row) => row.status === status)?.count ?? 0);
  const records = await queryRows<{ step: string; sent: number; invalid: number; excluded: number }>(
    db,
    sql`select name::text as step, sum(records_sent)::float8 as sent, sum(records_invalid)::float8 as invalid, sum(records_excluded)::float8 as excluded
          from sync_steps group by name order by name`,
  );
  const stepDurations = await queryRows<HistogramRow>(
    db,
    sql`select label, count(*)::float8 as count, coalesce(sum(seconds), 0)::float8 as sum, ${bucketCounts("seconds", STEP_DURATION_BUCKETS)} as cumulative
          from (select name::text as label, extract(epoch from finished_at - started_at) as seconds
                  from sync_steps where started_at is not null and finished_at is not null) finished
         group by label order by label`,
  );
  // One pass over the attempts for both their statuses and their durations (the largest table of all).
  const attempts = await queryRows<{ operation: string; status: string; count: number; sum_ms: number; cumulative: number[] }>(
    db,
    sql`select operation, coalesce(status::text, 'none') as status, count(*)::float8 as count, coalesce(sum(duration_ms), 0)::float8 as sum_ms,
               ${bucketCounts(
                 "duration_ms",
                 ATTEMPT_DURATION_BUCKETS.map((seconds) => seconds * 1000),
               )} as cumulative
          from sync_attempts group by operation, status order by operation, status`,
  );
  const attemptDurations = [...Map.groupBy(attempts, (row) => row.operation)].map(([operation, rows]): HistogramRow => ({
    label: operation,
    count: rows.reduce((total, row) => total + Number(row.count), 0),
    sum: rows.reduce((total, row) => total + Number(row.sum_ms), 0) / 1000,
    cumulative: ATTEMPT_DURATION_BUCKETS.map((_, index) => rows.reduce((total, row) => total + Number(row.cumulative[index]), 0)),
  }));

  return [
    {
      name: "location_sync_sessions_total",
      help: "Finished sync sessions, by outcome.",
      type: "counter",
      samples: finishedStatuses.map((outcome) => ({ labels: { outcome }, value: sessionCount(outcome) })),
    },
    {
      name: "location_sync_sessions_in_flight",
      help: "Sync sessions queued or running.",
      type: "gauge",
      samples: inFlightStatuses.map((status) => ({ labels: { status }, value: sessionCount(status) })),
    },
    histogram("location_sync_step_duration_seconds", "How long finished sync steps took.", "step", STEP_DURATION_BUCKETS, stepDurations),
    histogram(
      "location_sync_attempt_duration_seconds",
      "How long each HTTP attempt to the upstream took, by client operation.",
      "operation",
      ATTEMPT_DURATION_BUCKETS,
      attemptDurations,
    ),
    {
      name: "location_sync_records_sent_total",
      help: "Records sent to the upstream, by step.",
      type: "counter",
      samples: records.map((row) => ({ labels: { step: row.step }, value: Number(row.sent) })),
    },
    {
      name: "location_sync_records_skipped_total",
      help: "Records not sent, by step and why: invalid (failed the mapping's checks) or excluded (left out by rule).",
      type: "counter",
      samples: records.flatMap((row) => [
        { labels: { step: row.step, reason: "invalid" }, value: Number(row.invalid) },
        { labels: { step: row.step, reason: "excluded" }, value: Number(row.excluded) },
      ]),
    },
    {
      name: "location_sync_upstream_responses_total",
      help: 'HTTP attempts to the upstream, by client operation and response status ("none": no answer, e.g. a reset or timeout).',
      type: "counter",
      samples: attempts.map((row) => ({ labels: { operation: row.operation, status: row.status }, value: Number(row.count) })),
    },
    ...(await queueFamilies(db)),
  ];
}

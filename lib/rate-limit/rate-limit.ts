import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";

export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

export interface RateLimitState {
  count: number;
  limited: boolean;
  retryAfterSeconds: number;
}

function stateOf(row: { count: number; window_start: Date } | undefined, rule: RateLimitRule, now: Date): RateLimitState {
  if (!row) return { count: 0, limited: false, retryAfterSeconds: 0 };
  const endsAt = new Date(row.window_start).getTime() + rule.windowSeconds * 1000;
  if (endsAt <= now.getTime()) return { count: 0, limited: false, retryAfterSeconds: 0 };
  return { count: row.count, limited: row.count >= rule.limit, retryAfterSeconds: Math.ceil((endsAt - now.getTime()) / 1000) };
}

/** Reads a fixed-window counter without counting. */
export async function readRateLimit(db: DatabaseOrTransaction, key: string, rule: RateLimitRule, now = new Date()) {
  const rows = await db.execute<{ count: number; window_start: Date }>(
    sql`select count, window_start from rate_limit_buckets where key = ${key}`,
  );
  return stateOf(rows[0], rule, now);
}

/**
 * Counts one hit in one atomic upsert (shared by every process), starting a new
 * window when the old one has ended. Returns the state before this hit is judged:
 * `limited` is true when this hit went past the limit.
 */
export async function hitRateLimit(db: DatabaseOrTransaction, key: string, rule: RateLimitRule, now = new Date()) {
  const windowStartFloor = new Date(now.getTime() - rule.windowSeconds * 1000).toISOString();
  const nowText = now.toISOString();
  const rows = await db.execute<{ count: number; window_start: Date }>(sql`
    insert into rate_limit_buckets (key, window_start, count) values (${key}, ${nowText}::timestamptz, 1)
    on conflict (key) do update set
      count = case when rate_limit_buckets.window_start <= ${windowStartFloor}::timestamptz then 1 else rate_limit_buckets.count + 1 end,
      window_start = case when rate_limit_buckets.window_start <= ${windowStartFloor}::timestamptz then ${nowText}::timestamptz else rate_limit_buckets.window_start end
    returning count, window_start`);
  const row = rows[0];
  const state = stateOf(row, rule, now);
  return { ...state, limited: (row?.count ?? 0) > rule.limit };
}

export async function clearRateLimit(db: DatabaseOrTransaction, key: string) {
  await db.execute(sql`delete from rate_limit_buckets where key = ${key}`);
}

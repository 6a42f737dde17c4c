import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";

export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

/** A slot taken in a fixed-window counter; give it back with releaseRateLimitSlot. */
export interface RateLimitSlot {
  key: string;
  windowStart: Date;
}

export type RateLimitReservation = { reserved: true; slots: RateLimitSlot[] } | { reserved: false; refusedKey: string; retryAfterSeconds: number };

/**
 * Takes one slot of a fixed-window counter in ONE statement that counts and
 * decides: the row is locked by the upsert, so parallel callers queue on it and
 * never more than `limit` of them get a slot in a window. A refused call counts
 * nothing. Returns null when the window is full.
 */
export async function reserveRateLimitSlot(
  db: DatabaseOrTransaction,
  key: string,
  rule: RateLimitRule,
  now = new Date(),
): Promise<RateLimitSlot | null> {
  const windowStartFloor = new Date(now.getTime() - rule.windowSeconds * 1000).toISOString();
  const nowText = now.toISOString();
  const rows = await db.execute<{ window_start: Date }>(sql`
    insert into rate_limit_buckets (key, window_start, count) values (${key}, ${nowText}::timestamptz, 1)
    on conflict (key) do update set
      count = case when rate_limit_buckets.window_start <= ${windowStartFloor}::timestamptz then 1 else rate_limit_buckets.count + 1 end,
      window_start = case when rate_limit_buckets.window_start <= ${windowStartFloor}::timestamptz then ${nowText}::timestamptz else rate_limit_buckets.window_start end
    where rate_limit_buckets.window_start <= ${windowStartFloor}::timestamptz or rate_limit_buckets.count < ${rule.limit}
    returning window_start`);
  const row = rows[0];
  return row ? { key, windowStart: new Date(row.window_start) } : null;
}

/** Gives a slot back, unless its window has ended since (the counter restarted without it). */
export async function releaseRateLimitSlot(db: DatabaseOrTransaction, slot: RateLimitSlot) {
  await db.execute(sql`
    update rate_limit_buckets set count = count - 1
    where key = ${slot.key} and window_start = ${slot.windowStart.toISOString()}::timestamptz and count > 0`);
}

/**
 * One slot from each counter, or none: when a later counter is full, the slots
 * already taken are given back, so a refused attempt uses up no allowance.
 */
export async function reserveRateLimitSlots(
  db: DatabaseOrTransaction,
  counters: { key: string; rule: RateLimitRule }[],
  now = new Date(),
): Promise<RateLimitReservation> {
  const slots: RateLimitSlot[] = [];
  for (const counter of counters) {
    const slot = await reserveRateLimitSlot(db, counter.key, counter.rule, now);
    if (!slot) {
      await Promise.all(slots.map((taken) => releaseRateLimitSlot(db, taken)));
      return { reserved: false, refusedKey: counter.key, retryAfterSeconds: await secondsUntilWindowEnds(db, counter.key, counter.rule, now) };
    }
    slots.push(slot);
  }
  return { reserved: true, slots };
}

async function secondsUntilWindowEnds(db: DatabaseOrTransaction, key: string, rule: RateLimitRule, now: Date): Promise<number> {
  const rows = await db.execute<{ window_start: Date }>(sql`select window_start from rate_limit_buckets where key = ${key}`);
  const windowStart = rows[0]?.window_start;
  if (!windowStart) return 1;
  return Math.max(1, Math.ceil((new Date(windowStart).getTime() + rule.windowSeconds * 1000 - now.getTime()) / 1000));
}

export async function clearRateLimit(db: DatabaseOrTransaction, key: string) {
  await db.execute(sql`delete from rate_limit_buckets where key = ${key}`);
}

/** The longest window any counter uses, with room to spare: a bucket older than this counts nothing any more. */
export const RATE_LIMIT_BUCKET_RETENTION_SECONDS = 24 * 60 * 60;

/** Forgets buckets whose window ended long ago: one row per address or account tried would otherwise stay forever. */
export async function pruneRateLimitBuckets(db: DatabaseOrTransaction, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - RATE_LIMIT_BUCKET_RETENTION_SECONDS * 1000).toISOString();
  const rows = await db.execute<{ key: string }>(sql`delete from rate_limit_buckets where window_start < ${before}::timestamptz returning key`);
  return rows.length;
}

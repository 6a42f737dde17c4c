import { sql } from "drizzle-orm";
import type { Database } from "./client";
import { queryRows } from "./raw-sql";

/** Rows written since a table's last vacuum from which a job that wrote them vacuums it itself. */
export const BULK_WRITE_ROWS = 100_000;

export type BulkWrittenTable = "preview_records" | "synced_records";

/**
 * Vacuums a table just written in bulk (a full preview's records; a first sync's accepted records) instead of leaving
 * it to autovacuum, which gets there later and throttled. Until a vacuum passes, the first read of each new page sets
 * its hint bits (with data checksums, a full-page image in the WAL each) and no index-only scan can skip the heap: the
 * next sync's look-ups of a few thousand keys and its count of skipped records took seconds instead of tenths. VACUUM
 * skips the pages it finds all-visible, so it costs about what was written. `rowsWritten`: what the caller knows it
 * wrote (else the table's statistics say, which lag the last seconds' writes).
 */
export async function vacuumAfterBulkWrite(
  db: Database,
  table: BulkWrittenTable,
  options: { rowsWritten?: number; threshold?: number } = {},
): Promise<boolean> {
  const threshold = options.threshold ?? BULK_WRITE_ROWS;
  let written = options.rowsWritten;
  if (written === undefined) {
    const [pending] = await queryRows<{ rows: number }>(
      db,
      sql`select (n_ins_since_vacuum + n_dead_tup)::int as rows from pg_stat_user_tables where relid = ${table}::regclass`,
    );
    written = pending?.rows ?? 0;
  }
  if (written < threshold) return false;
  // Outside any transaction (VACUUM cannot run in one); a table-wide lock only against other vacuums and schema changes.
  await db.execute(sql.raw(`vacuum ${table}`));
  return true;
}

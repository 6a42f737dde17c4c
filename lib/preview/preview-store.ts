import { sql, type SQL } from "drizzle-orm";
import type { Database, DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { DomainError } from "@/lib/errors/domain-error";
import { forgetEveryUnsyncedKey } from "@/lib/sync/unsynced-keys";

// The preview's tables (preview_records, preview_issues, preview_record_counts) are UNLOGGED: derived from the source,
// they can always be computed again, and their writes skip the write-ahead log (migration 0034). PostgreSQL empties
// them after a crash (not after a clean stop), and with them preview_store's one row: the epoch of what they hold.
// Every run stamps the epoch it wrote in (preview_runs.store_epoch) and succeeds only if that epoch is still the
// current one when it does; a run's records are shown, built on and sent from only while it is. The first run or
// session after a crash retires what the logged tables said of the lost records and starts a new epoch.

export const previewStoreLostMessage = "The preview's stored records were lost when the database crashed: they are computed again from the source.";

/** The SQLSTATE of preview_store_check (migration 0034). */
const storeLostCode = "LSP01";

/** The epoch of what the preview's tables hold now; null after a crash emptied them, until a run starts a new one. */
export async function previewStoreEpoch(db: DatabaseOrTransaction): Promise<string | null> {
  const [row] = await queryRows<{ epoch: string }>(db, sql`select epoch from preview_store`);
  return row?.epoch ?? null;
}

/**
 * The current epoch, for a run about to read or write the preview's tables. After a crash it first retires what the
 * logged tables said of the lost records: runs that were running in an epoch or had succeeded fail with the reason, and the
 * unsynced-key ledgers (which compare those records with what the upstream accepted) are dropped.
 */
export async function openPreviewStore(db: Database): Promise<string> {
  const current = await previewStoreEpoch(db);
  if (current) return current;
  return db.transaction(async (tx) => {
    // One retirement for every process that finds the row gone at once.
    await tx.execute(sql`lock table preview_store in exclusive mode`);
    const started = await previewStoreEpoch(tx);
    if (started) return started;
    // A run claimed that has not begun in an epoch yet (lib/preview/compute-preview.ts) lost nothing.
    await tx.execute(sql`update preview_runs set status = 'failed', error = ${previewStoreLostMessage}, finished_at = coalesce(finished_at, now())
                         where status = 'succeeded' or (status = 'running' and store_epoch is not null)`);
    await tx.execute(sql`delete from preview_record_counts`);
    await forgetEveryUnsyncedKey(tx);
    const [row] = await queryRows<{ epoch: string }>(tx, sql`insert into preview_store default values returning epoch`);
    console.warn("[preview] the preview's tables were emptied by a database crash: every location's preview is computed again");
    return row!.epoch;
  });
}

/**
 * A condition that is true while `epoch` is current and otherwise fails the statement it is in (a one-time filter):
 * a read of the preview's records on a sync's path never takes the tables a crash emptied for an empty location.
 */
export const previewStoreIntact = (epoch: string): SQL => sql`preview_store_check(${epoch}::uuid)`;

/** The error a failed preview_store_check becomes: a DomainError with the reason (not worth another attempt). */
export function previewStoreErrorOf(error: unknown): unknown {
  // postgres.js's error, or drizzle's wrapping it as its cause.
  for (let current = error; current instanceof Error; current = current.cause)
    if ((current as { code?: unknown }).code === storeLostCode) return new DomainError("CONFLICT", previewStoreLostMessage);
  return error;
}

/** A cursor's batches, its failed preview_store_check turned into the reason (previewStoreErrorOf). */
export async function* withPreviewStoreErrors<T>(batches: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* batches;
  } catch (error) {
    throw previewStoreErrorOf(error);
  }
}

/** Throws (DomainError) unless `epoch` is still the current one: nothing read of the preview's tables since it began was lost. */
export async function assertPreviewStore(db: DatabaseOrTransaction, epoch: string): Promise<void> {
  await db.execute(sql`select ${previewStoreIntact(epoch)}`).catch((error: unknown) => Promise.reject(previewStoreErrorOf(error)));
}

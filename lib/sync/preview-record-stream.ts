import type { DatabaseOrTransaction } from "@/db/client";
import { cursorRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import { RecordBatch } from "@/lib/upstream/upload";
import { selectionCondition, type RecordSelection } from "./plan/record-selection";
import { assertPreviewStore, previewStoreIntact, withPreviewStoreErrors } from "@/lib/preview/preview-store";

const CURSOR_ROWS = 1000;

/**
 * The epoch of the preview's tables a step sent from the preview reads its records in (lib/preview/preview-store.ts),
 * checked before the step asks anything of the upstream: it fails (DomainError) once a crash emptied them.
 */
export async function checkedPreviewEpoch(context: { db: DatabaseOrTransaction; previewEpoch: string | null }): Promise<string> {
  if (!context.previewEpoch) throw new Error("a step sent from the preview runs in a session that computed one");
  await assertPreviewStore(context.db, context.previewEpoch);
  return context.previewEpoch;
}

/**
 * `epoch`: the preview's tables as the session's run wrote them (lib/preview/preview-store.ts); the read fails, with
 * the reason, once a crash emptied them.
 */
const selectedPayloads = <T>(db: DatabaseOrTransaction, locationId: string, selection: RecordSelection, epoch: string) =>
  withPreviewStoreErrors(
    cursorRows<{ payload: T }>(
      db,
      sql`select r.payload from preview_records r where ${previewStoreIntact(epoch)} and ${selectionCondition(locationId, selection)} order by r.seq`,
      CURSOR_ROWS,
    ),
  );

/**
 * The selected records in source order, read with a cursor, a batch per item of the upload: memory holds one batch.
 * A function, so the client can open it again when it retries an upload.
 */
export function streamSelectedRecords<T>(
  db: DatabaseOrTransaction,
  locationId: string,
  selection: RecordSelection,
  epoch: string,
): () => AsyncIterable<RecordBatch<T>> {
  return async function* () {
    for await (const rows of selectedPayloads<T>(db, locationId, selection, epoch)) yield new RecordBatch(rows.map((row) => row.payload));
  };
}

/** Small sets (calendars, categories, services) go in one request body. */
export async function readSelectedRecords<T>(db: DatabaseOrTransaction, locationId: string, selection: RecordSelection, epoch: string): Promise<T[]> {
  const records: T[] = [];
  for await (const rows of selectedPayloads<T>(db, locationId, selection, epoch)) for (const row of rows) records.push(row.payload);
  return records;
}

import type { DatabaseOrTransaction } from "@/db/client";
import { cursorRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import { RecordBatch } from "@/lib/upstream/upload";
import { selectionCondition, type RecordSelection } from "./plan/record-selection";

const CURSOR_ROWS = 1000;

const selectedPayloads = <T>(db: DatabaseOrTransaction, locationId: string, selection: RecordSelection) =>
  cursorRows<{ payload: T }>(
    db,
    sql`select r.payload from preview_records r where ${selectionCondition(locationId, selection)} order by r.seq`,
    CURSOR_ROWS,
  );

/**
 * The selected records in source order, read with a cursor, a batch per item of the upload: memory holds one batch.
 * A function, so the client can open it again when it retries an upload.
 */
export function streamSelectedRecords<T>(
  db: DatabaseOrTransaction,
  locationId: string,
  selection: RecordSelection,
): () => AsyncIterable<RecordBatch<T>> {
  return async function* () {
    for await (const rows of selectedPayloads<T>(db, locationId, selection)) yield new RecordBatch(rows.map((row) => row.payload));
  };
}

/** Small sets (calendars, categories, services) go in one request body. */
export async function readSelectedRecords<T>(db: DatabaseOrTransaction, locationId: string, selection: RecordSelection): Promise<T[]> {
  const records: T[] = [];
  for await (const rows of selectedPayloads<T>(db, locationId, selection)) for (const row of rows) records.push(row.payload);
  return records;
}

import type { DatabaseOrTransaction } from "@/db/client";
import { cursorRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import { selectionCondition, type RecordSelection } from "./plan/record-selection";

const CURSOR_ROWS = 1000;

/**
 * The selected records in source order, read with a cursor: memory holds one batch.
 * A function, so the client can open it again when it retries an upload.
 */
export function streamSelectedRecords<T>(db: DatabaseOrTransaction, locationId: string, selection: RecordSelection): () => AsyncIterable<T> {
  return async function* () {
    const cursor = cursorRows<{ payload: T }>(
      db,
      sql`select r.payload from preview_records r where ${selectionCondition(locationId, selection)} order by r.seq`,
      CURSOR_ROWS,
    );
    for await (const rows of cursor) for (const row of rows) yield row.payload;
  };
}

/** Small sets (calendars, categories, services) go in one request body. */
export async function readSelectedRecords<T>(db: DatabaseOrTransaction, locationId: string, selection: RecordSelection): Promise<T[]> {
  const records: T[] = [];
  for await (const record of streamSelectedRecords<T>(db, locationId, selection)()) records.push(record);
  return records;
}

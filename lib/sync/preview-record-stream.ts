import type postgres from "postgres";
import { selectionCondition, type RecordSelection } from "./plan/record-selection";

const CURSOR_ROWS = 1000;

/**
 * The selected records in source order, read with a cursor: memory holds one batch.
 * A function, so the client can open it again when it retries an upload.
 */
export function streamSelectedRecords<T>(sql: postgres.Sql, locationId: string, selection: RecordSelection): () => AsyncIterable<T> {
  return async function* () {
    const cursor = sql<{ payload: T }[]>`
      select r.payload from preview_records r where ${selectionCondition(sql, locationId, selection)} order by r.seq`.cursor(CURSOR_ROWS);
    for await (const rows of cursor) for (const row of rows) yield row.payload;
  };
}

/** Small sets (calendars, categories, services) go in one request body. */
export async function readSelectedRecords<T>(sql: postgres.Sql, locationId: string, selection: RecordSelection): Promise<T[]> {
  const records: T[] = [];
  for await (const record of streamSelectedRecords<T>(sql, locationId, selection)()) records.push(record);
  return records;
}

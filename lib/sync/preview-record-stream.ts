import type { DatabaseOrTransaction } from "@/db/client";
import { cursorRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import { RecordBatch } from "@/lib/upstream/upload";
import { selectionCondition, type RecordSelection } from "./plan/record-selection";
import { assertPreviewStore, previewStoreIntact, withPreviewStoreErrors } from "@/lib/preview/preview-store";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import type { CheckedRecord } from "@/lib/pipeline/cross-checks";
import type { RecheckedItem } from "./plan/catalogue-recheck";

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
 * the reason, once a crash emptied them. `checked`: every column the checks read (CheckedRecord), not just the payload.
 */
const selectedRows = <T>(db: DatabaseOrTransaction, locationId: string, selection: RecordSelection, epoch: string, checked = false) =>
  withPreviewStoreErrors(
    cursorRows<T>(
      db,
      sql`select ${checked ? checkedColumns : sql`r.payload`} from preview_records r
          where ${previewStoreIntact(epoch)} and ${selectionCondition(locationId, selection)} order by r.seq`,
      CURSOR_ROWS,
    ),
  );

const checkedColumns = sql`r.record_type, r.source_id, r.record_key, r.status, r.payload, r.content_hash, r.ref_contact, r.ref_service,
  r.ref_calendar, r.ref_category, r.ref_calendars, r.issue_count, r.dropped_references`;

/** The payloads of the selected rows, or, with `recheck`, the payloads the session sends of them (RecheckedItem). */
async function* selectedPayloads<T>(
  db: DatabaseOrTransaction,
  locationId: string,
  selection: RecordSelection,
  epoch: string,
  recheck: RecheckedItem | null,
): AsyncGenerator<T[]> {
  if (!recheck) {
    for await (const rows of selectedRows<{ payload: T }>(db, locationId, selection, epoch)) yield rows.map((row) => row.payload);
    return;
  }
  recheck.reset();
  for await (const rows of selectedRows<CheckedRecord>(db, locationId, selection, epoch, true))
    yield rows.flatMap((row) => (recheck.send(row) as T | null) ?? []);
}

/**
 * The selected records in source order, read with a cursor, a batch per item of the upload: memory holds one batch.
 * A function, so the client can open it again when it retries an upload. `recheck`: checked again as they are sent.
 */
export function streamSelectedRecords<T>(
  db: DatabaseOrTransaction,
  locationId: string,
  selection: RecordSelection,
  epoch: string,
  recheck: RecheckedItem | null = null,
): () => AsyncIterable<RecordBatch<T>> {
  return async function* () {
    for await (const payloads of selectedPayloads<T>(db, locationId, selection, epoch, recheck)) yield new RecordBatch(payloads);
  };
}

/** Small sets (calendars, categories, services) go in one request body. */
export async function readSelectedRecords<T>(
  db: DatabaseOrTransaction,
  locationId: string,
  selection: RecordSelection,
  epoch: string,
  recheck: RecheckedItem | null = null,
): Promise<T[]> {
  const records: T[] = [];
  for await (const payloads of selectedPayloads<T>(db, locationId, selection, epoch, recheck)) records.push(...payloads);
  return records;
}

/** The keys of a type's sendable records (a catalogue type: a few hundred). */
export async function readSelectedKeys(db: DatabaseOrTransaction, locationId: string, type: PreviewRecordType, epoch: string): Promise<string[]> {
  const keys: string[] = [];
  const rows = withPreviewStoreErrors(
    cursorRows<{ key: string }>(
      db,
      sql`select r.record_key as key from preview_records r
          where ${previewStoreIntact(epoch)} and ${selectionCondition(locationId, { kind: "all", recordType: type })} and r.record_key is not null`,
      CURSOR_ROWS,
    ),
  );
  for await (const batch of rows) keys.push(...batch.map((row) => row.key));
  return keys;
}

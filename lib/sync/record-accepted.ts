import { sql } from "drizzle-orm";
import { copyRows } from "@/db/copy-rows";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import type { FencedTransaction } from "./session-fence";
import { selectionCondition, type RecordSelection } from "./plan/record-selection";

/** What the upstream replaced with an accepted item: a full replacement its type, a range its dates, an openings import its service. */
async function forgetReplaced(tx: FencedTransaction, locationId: string, selection: RecordSelection): Promise<void> {
  const type = selection.recordType;
  if (selection.kind === "all") {
    await tx.execute(sql`delete from synced_records where location_id = ${locationId} and record_type = ${type}`);
  } else if (selection.kind === "dates") {
    await tx.execute(sql`delete from synced_records where location_id = ${locationId} and record_type = ${type}
             and appointment_date between ${selection.startDate} and ${selection.endDate}`);
  } else if (selection.kind === "service") {
    await tx.execute(sql`delete from synced_records where location_id = ${locationId} and record_type = ${type}
             and split_part(record_key, '|', 1) = ${selection.serviceExternalId}`);
  }
}

/** A service removed upstream takes its openings with it. */
async function forgetOpeningsOfRemovedServices(tx: FencedTransaction, locationId: string): Promise<void> {
  await tx.execute(sql`delete from synced_records o where o.location_id = ${locationId} and o.record_type = 'openings'
           and not exists (select 1 from synced_records s where s.location_id = ${locationId} and s.record_type = 'services'
                           and s.record_key = split_part(o.record_key, '|', 1))`);
}

/**
 * Records what the upstream just accepted, in the transaction that marks the item done.
 * Full replacements and ranges first forget what the upstream replaced.
 */
export async function recordAccepted(tx: FencedTransaction, input: { locationId: string; selection: RecordSelection }): Promise<void> {
  const { locationId, selection } = input;
  await forgetReplaced(tx, locationId, selection);
  await tx.execute(sql`
    insert into synced_records (location_id, record_type, record_key, content_hash, appointment_date, synced_at)
    select distinct on (r.record_key) ${locationId}, r.record_type, r.record_key, r.content_hash, r.local_date, now()
    from preview_records r where ${selectionCondition(locationId, selection)} and r.record_key is not null and r.content_hash is not null
    order by r.record_key, r.seq
    on conflict (location_id, record_type, record_key) do update
      set content_hash = excluded.content_hash, appointment_date = excluded.appointment_date, synced_at = excluded.synced_at`);
  if (selection.recordType === "services") await forgetOpeningsOfRemovedServices(tx, locationId);
}

/** One record an upload carried, as synced_records keeps it. */
export interface SentRecord {
  key: string;
  hash: string;
  /** An appointment's local date. */
  date: string | null;
}

/**
 * Records what the upstream just accepted of records sent straight from the source (a streamed session). Where none
 * of the keys can be recorded already (`mayBeRecorded` false: a first sync, where each key is sent once) they are
 * copied, at half the cost of an upsert (measured 7.7 against 15.3 µs a row); else upserted.
 */
export async function recordSentRecords(
  tx: FencedTransaction,
  input: { locationId: string; type: PreviewRecordType; replaced: RecordSelection | null; records: readonly SentRecord[]; mayBeRecorded: boolean },
): Promise<void> {
  const { locationId, type, replaced, records } = input;
  if (replaced) await forgetReplaced(tx, locationId, replaced);
  if (records.length && input.mayBeRecorded) await upsertSentRecords(tx, input);
  else if (records.length) {
    await copyRows(
      tx,
      "synced_records",
      syncedColumns,
      records.map((record) => ({
        location_id: locationId,
        record_type: type,
        record_key: record.key,
        content_hash: record.hash,
        appointment_date: record.date,
      })),
    );
  }
  if (type === "services") await forgetOpeningsOfRemovedServices(tx, locationId);
}

const syncedColumns = ["location_id", "record_type", "record_key", "content_hash", "appointment_date"] as const;

async function upsertSentRecords(tx: FencedTransaction, input: { locationId: string; type: PreviewRecordType; records: readonly SentRecord[] }) {
  const { locationId, type, records } = input;
  await tx.execute(sql`
    insert into synced_records (location_id, record_type, record_key, content_hash, appointment_date, synced_at)
    select ${locationId}, ${type}, sent.key, sent.hash, sent.date::date, now()
    from unnest(${sql.param(records.map((record) => record.key))}::text[], ${sql.param(records.map((record) => record.hash))}::text[], ${sql.param(records.map((record) => record.date))}::text[]) as sent(key, hash, date)
    on conflict (location_id, record_type, record_key) do update
      set content_hash = excluded.content_hash, appointment_date = excluded.appointment_date, synced_at = excluded.synced_at`);
}

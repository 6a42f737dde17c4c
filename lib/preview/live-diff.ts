import { sql, type SQL } from "drizzle-orm";
import { sendableStatusList, sendableStatusText } from "@/lib/pipeline/record-status-sql";

// New, changed or unchanged is read against what the upstream last accepted (synced_records), not stored
// with the record: a record sent a minute ago shows as unchanged without recomputing the preview.

/** The SQL expression of a record's diff, `records` naming preview_records in the query; needs synced_records as `s` (`syncedJoin`). */
export const diffExpressionOf = (records: string) => `case when ${records}.content_hash is null or ${records}.record_key is null then null
  when s.content_hash is null then 'new' when s.content_hash = ${records}.content_hash then 'unchanged' else 'changed' end`;

export const diffExpression = diffExpressionOf("r");

/** The synced_records row of record `r`, if any, as `s`. */
export const syncedJoin = `left join synced_records s on s.location_id = r.location_id and s.record_type = r.record_type and s.record_key = r.record_key`;

/** Record `r` is new or changed: the upstream has not accepted this exact content under its key. */
export const newOrChanged = `not exists (select 1 from synced_records s where s.location_id = r.location_id and s.record_type = r.record_type
  and s.record_key = r.record_key and s.content_hash = r.content_hash)`;

/** synced_records.content_hash of a contact that was unsubscribed because it left the source (lib/sync/plan/gone-contacts.ts). */
export const UNSUBSCRIBED_HASH = "unsubscribed";

/** A record `s` (synced_records) no sendable preview record has the key of: the upstream holds what the source no longer sends. */
export const notSentAgain = `not exists (select 1 from preview_records r where r.location_id = s.location_id and r.record_type = s.record_type
  and r.record_key = s.record_key and r.status in ${sendableStatusText})`;

/** A contact `s` (synced_records) the upstream holds as sent and the source no longer has as a usable record: to unsubscribe. */
export const goneContact = `s.record_type = 'contact_details' and s.content_hash <> '${UNSUBSCRIBED_HASH}' and ${notSentAgain}`;

/**
 * The location's appointments whose sendable preview record and what the upstream accepted differ — new, changed,
 * moved, or accepted and no longer sendable (canceled, no-show, deleted) — compared in one pass over both sides.
 * Columns record_key, new_date (the preview's) and sent_date (what it was accepted for).
 */
export function differingAppointments(locationId: string): SQL {
  return sql`
    select coalesce(r.record_key, s.record_key) as record_key, r.local_date as new_date, s.appointment_date as sent_date
    from (select record_key, content_hash, local_date from preview_records
          where location_id = ${locationId} and record_type = 'appointments' and status in ${sendableStatusList} and content_hash is not null) r
    full join (select record_key, content_hash, appointment_date from synced_records
               where location_id = ${locationId} and record_type = 'appointments') s on s.record_key = r.record_key
    where s.content_hash is distinct from r.content_hash`;
}

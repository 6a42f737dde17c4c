import { and, eq, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { previewRecords, syncedRecords } from "@/db/schema";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { sendableStatusList, sendableStatusText } from "@/lib/pipeline/record-status-sql";

// The preview compared with what the upstream last accepted (synced_records): new, changed or unchanged is read here,
// not stored with the record, so a record sent a minute ago shows as unchanged without recomputing the preview; and a
// plan's touched dates and the keys that differ are found here too.

/** The SQL expression of a record's diff, `records` naming preview_records in the query; needs synced_records as `s` (`syncedJoin`). */
export const diffExpressionOf = (records: string) => `case when ${records}.content_hash is null or ${records}.record_key is null then null
  when s.content_hash is null then 'new' when s.content_hash = ${records}.content_hash then 'unchanged' else 'changed' end`;

export const diffExpression = diffExpressionOf("r");

/** What the upstream last accepted of each preview record, joined as `s` (drizzle: `.leftJoin(synced, syncedOfRecord)`). */
export const synced = alias(syncedRecords, "s");
export const syncedOfRecord = and(
  eq(synced.locationId, previewRecords.locationId),
  eq(synced.recordType, previewRecords.recordType),
  eq(synced.recordKey, previewRecords.recordKey),
);
/** The diff of each preview record, with `synced` joined. */
export const diffColumn = sql<"new" | "changed" | "unchanged" | null>`${sql.raw(diffExpressionOf('"preview_records"'))}`;

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

/**
 * Every key the whole comparison of the location's preview with synced_records selects: new or changed contacts and
 * vehicles, gone contacts, and appointments that differ on either side. Columns record_type, record_key.
 */
export function differingKeys(locationId: string): SQL {
  return sql`
    select r.record_type, r.record_key from preview_records r
    where r.location_id = ${locationId} and r.record_type in ('contact_details', 'vehicles') and r.status in ${sendableStatusList}
      and r.content_hash is not null and r.record_key is not null and ${sql.raw(newOrChanged)}
    union
    select s.record_type, s.record_key from synced_records s where s.location_id = ${locationId} and ${sql.raw(goneContact)}
    union
    select 'appointments', differing.record_key from (${differingAppointments(locationId)}) differing`;
}

// Touched: the date of every sendable record whose content the upstream has not accepted (new, changed, moved), the
// date a changed one was sent for, and the date of every accepted appointment that is no longer sendable (canceled,
// no-show, deleted).

/** In one pass over both sides of the whole location (the removals are counted by the valve's own query). */
const touchedAnywhere = (locationId: string) => sql`
  select distinct dates.day::text as date, 0 as removed from (${differingAppointments(locationId)}) differing
  cross join lateral (values (differing.new_date), (differing.sent_date)) as dates(day)
  where dates.day is not null
  order by 1`;

/**
 * The same dates, looked up key by key from the location's unsynced keys when they are known (lib/sync/unsynced-keys.ts),
 * each with its accepted appointments that no sendable record names any more (a key without one has only that day).
 */
const touchedAmongUnsynced = (locationId: string) => sql`
  select dates.day::text as date, count(*) filter (where r.record_key is null)::int as removed
  from unsynced_keys u
  left join preview_records r on r.location_id = u.location_id and r.record_type = 'appointments' and r.record_key = u.record_key
    and r.status in ${sendableStatusList} and r.content_hash is not null
  left join synced_records s on s.location_id = u.location_id and s.record_type = 'appointments' and s.record_key = u.record_key
  cross join lateral (values (r.local_date), (s.appointment_date)) as dates(day)
  where u.location_id = ${locationId} and u.record_type = 'appointments' and s.content_hash is distinct from r.content_hash and dates.day is not null
  group by dates.day
  order by 1`;

/** The appointment dates a session's plan re-imports, each with the removals it counts when `unsyncedOnly` (else 0). */
export async function touchedAppointmentDays(
  db: DatabaseOrTransaction,
  locationId: string,
  unsyncedOnly: boolean,
): Promise<{ date: string; removed: number }[]> {
  return queryRows<{ date: string; removed: number }>(db, unsyncedOnly ? touchedAmongUnsynced(locationId) : touchedAnywhere(locationId));
}

/**
 * synced_records may just have grown by a million rows (a first sync); autovacuum analyzes it later, and until then
 * the planner takes it for small and joins by index lookups, a hundred times slower than hashing.
 */
export async function freshenSyncedStatistics(db: DatabaseOrTransaction): Promise<void> {
  const [stale] = await queryRows(
    db,
    sql`select 1 from pg_stat_user_tables
        where relid = 'synced_records'::regclass and n_mod_since_analyze > 1000 and n_mod_since_analyze > n_live_tup / 10`,
  );
  if (stale) await db.execute(sql`analyze synced_records`);
}

/** What a stream of sendable records (key and hash per record type) gives against synced_records. */
export interface StreamedComparison {
  new: number;
  changed: number;
  unchanged: number;
  /** What the upstream holds of the type (contacts: not as unsubscribed) that no record of the stream sends again. */
  removed: number;
}

/**
 * Compares sendable records, kept as (record_type, record_key, content_hash) rows in the temporary table `keys` of
 * `tx`'s connection (a first preview run's, lib/preview/stream-counts.ts), with what the upstream accepted, in one
 * statement: a hash join instead of a look-up per record, and what is held counted in the same snapshot. A stream's
 * keys are unique per type (the duplicate check), so what is held less what was matched is what is not sent again.
 */
export async function compareStreamedKeys(
  tx: DatabaseOrTransaction,
  locationId: string,
  keys: string,
  types: readonly string[],
): Promise<Map<string, StreamedComparison>> {
  await freshenSyncedStatistics(tx);
  const held = `not (s.record_type = 'contact_details' and s.content_hash = '${UNSUBSCRIBED_HASH}')`;
  const rows = await queryRows<{ record_type: string } & StreamedComparison>(
    tx,
    sql`
    with compared as (
      select k.record_type,
             count(*) filter (where k.content_hash is not null and s.content_hash is null) as new,
             count(*) filter (where k.content_hash is not null and s.content_hash <> k.content_hash) as changed,
             count(*) filter (where k.content_hash is not null and s.content_hash = k.content_hash) as unchanged,
             count(*) filter (where s.content_hash is not null and ${sql.raw(held)}) as matched
      from ${sql.identifier(keys)} k
      left join synced_records s on s.location_id = ${locationId} and s.record_type = k.record_type and s.record_key = k.record_key
      group by k.record_type),
    holding as (
      select s.record_type, count(*) filter (where ${sql.raw(held)}) as held from synced_records s
      where s.location_id = ${locationId} and s.record_type = any(${sql.param([...types])}::text[])
      group by s.record_type)
    select coalesce(c.record_type, h.record_type) as record_type, coalesce(c.new, 0)::int as new, coalesce(c.changed, 0)::int as changed,
           coalesce(c.unchanged, 0)::int as unchanged, greatest(coalesce(h.held, 0) - coalesce(c.matched, 0), 0)::int as removed
    from compared c full join holding h on h.record_type = c.record_type`,
  );
  return new Map(rows.map(({ record_type, ...comparison }) => [record_type, comparison]));
}

import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { goneContact, newOrChanged } from "@/lib/preview/live-diff";
import { unsyncedKeysKnown } from "../unsynced-keys";

/**
 * Tests: the keys the whole comparison of the location's preview with synced_records selects (new or changed contacts
 * and vehicles, gone contacts, differing appointments) that are missing from its unsynced keys while they are trusted.
 * Empty when the ledger is not trusted (a sync then compares the whole location).
 */
export async function keysMissingFromLedger(db: DatabaseOrTransaction, locationId: string): Promise<string[]> {
  if (!(await unsyncedKeysKnown(db, locationId))) return [];
  const rows = await queryRows<{ record_type: string; record_key: string }>(
    db,
    sql`
    select r.record_type, r.record_key from preview_records r
    where r.location_id = ${locationId} and r.record_type in ('contact_details', 'vehicles') and r.status in ('valid', 'warning')
      and r.content_hash is not null and r.record_key is not null and ${sql.raw(newOrChanged)}
    union
    select s.record_type, s.record_key from synced_records s where s.location_id = ${locationId} and ${sql.raw(goneContact)}
    union
    select 'appointments', coalesce(r.record_key, s.record_key) from
      (select record_key, content_hash from preview_records
       where location_id = ${locationId} and record_type = 'appointments' and status in ('valid', 'warning') and content_hash is not null) r
      full join (select record_key, content_hash from synced_records where location_id = ${locationId} and record_type = 'appointments') s
      on s.record_key = r.record_key
    where s.content_hash is distinct from r.content_hash
    except
    select record_type, record_key from unsynced_keys where location_id = ${locationId}
    order by 1, 2`,
  );
  return rows.map((row) => `${row.record_type}:${row.record_key}`);
}

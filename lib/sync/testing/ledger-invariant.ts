import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { differingKeys } from "../synced-records/compare";
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
    sql`${differingKeys(locationId)}
    except
    select record_type, record_key from unsynced_keys where location_id = ${locationId}
    order by 1, 2`,
  );
  return rows.map((row) => `${row.record_type}:${row.record_key}`);
}

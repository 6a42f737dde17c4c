import type { DatabaseOrTransaction } from "@/db/client";
import { cursorRows, queryRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import { goneContact, UNSUBSCRIBED_HASH } from "@/lib/preview/live-diff";
import type { ContactDetailRecord } from "@/lib/upstream/records";
import type { FencedTransaction } from "../session-fence";
import { amongUnsyncedKeys } from "../unsynced-keys";

// The upstream has no delete for contacts. A customer it holds (as last accepted) who is no longer a usable record of
// the source — deleted, anonymised, or no longer returned by the query — is sent once with both subscriptions off and
// recorded under UNSUBSCRIBED_HASH, so it is not sent again; a customer who comes back differs from it and is sent in full.

/** The item of the contacts step that unsubscribes them. */
export const UNSUBSCRIBE_ITEM_KEY = "unsubscribe gone";

/** Condition on `synced_records s`: a contact of the location to unsubscribe (`unsyncedOnly`: looked for among its unsynced keys). */
export function goneContactCondition(locationId: string, unsyncedOnly: boolean) {
  const condition = sql`s.location_id = ${locationId} and ${sql.raw(goneContact)}`;
  return unsyncedOnly ? sql`${condition} and ${amongUnsyncedKeys(locationId, "contact_details", sql`s.record_key`)}` : condition;
}

export async function hasGoneContacts(db: DatabaseOrTransaction, locationId: string, unsyncedOnly: boolean): Promise<boolean> {
  // A count, not "limit 1": with none gone (the usual case) a hash anti-join reads both sides once, where a limit
  // makes the planner probe the index for each of the location's contacts.
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from synced_records s where ${goneContactCondition(locationId, unsyncedOnly)}`,
  );
  return row!.count > 0;
}

/** What is sent for a gone customer: their key and both channels off, nothing else. */
export function unsubscribeRecord(externalId: string): ContactDetailRecord {
  return { external_id: externalId, email_subscribed: false, text_message_subscribed: false };
}

/** The unsubscribe records, read with a cursor (a function, so an upload retry can read them again). */
export function streamUnsubscribeRecords(
  db: DatabaseOrTransaction,
  locationId: string,
  unsyncedOnly: boolean,
): () => AsyncIterable<ContactDetailRecord> {
  return async function* () {
    const cursor = cursorRows<{ record_key: string }>(
      db,
      sql`select s.record_key from synced_records s where ${goneContactCondition(locationId, unsyncedOnly)} order by s.record_key`,
      1000,
    );
    for await (const rows of cursor) for (const row of rows) yield unsubscribeRecord(row.record_key);
  };
}

/** Once the upstream accepted the upload: the same set (the preview cannot change during a session) is recorded as unsubscribed. */
export async function recordUnsubscribed(tx: FencedTransaction, locationId: string, unsyncedOnly: boolean): Promise<void> {
  await tx.execute(
    sql`update synced_records s set content_hash = ${UNSUBSCRIBED_HASH}, synced_at = now() where ${goneContactCondition(locationId, unsyncedOnly)}`,
  );
}

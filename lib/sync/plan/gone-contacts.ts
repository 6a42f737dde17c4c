import type { DatabaseOrTransaction } from "@/db/client";
import { countGoneContacts, goneContactCursor } from "@/lib/sync/synced-records/removed-records";
import type { ContactDetailRecord } from "@/lib/upstream/records";

// The upstream has no delete for contacts. A customer it holds (as last accepted) who is no longer a usable record of
// the source — deleted, anonymised, or no longer returned by the query — is sent once with both subscriptions off and
// recorded under UNSUBSCRIBED_HASH, so it is not sent again; a customer who comes back differs from it and is sent in full.

/** The item of the contacts step that unsubscribes them. */
export const UNSUBSCRIBE_ITEM_KEY = "unsubscribe gone";

export async function hasGoneContacts(db: DatabaseOrTransaction, locationId: string, unsyncedOnly: boolean): Promise<boolean> {
  return (await countGoneContacts(db, locationId, unsyncedOnly)) > 0;
}

/** What is sent for a gone customer: their key and both channels off, nothing else. */
export function unsubscribeRecord(externalId: string): ContactDetailRecord {
  return { external_id: externalId, email_subscribed: false, text_message_subscribed: false };
}

/**
 * The unsubscribe records, read with a cursor (a function, so an upload retry can read them again); `epoch`: of the
 * preview's tables (lib/preview/preview-store.ts), whose records emptied by a crash would make every customer gone.
 */
export function streamUnsubscribeRecords(
  db: DatabaseOrTransaction,
  locationId: string,
  unsyncedOnly: boolean,
  epoch: string,
): () => AsyncIterable<ContactDetailRecord> {
  return async function* () {
    for await (const rows of goneContactCursor(db, locationId, unsyncedOnly, epoch)) for (const row of rows) yield unsubscribeRecord(row.record_key);
  };
}

import { sql } from "drizzle-orm";
import { sendableStatusList } from "@/lib/pipeline/record-status-sql";
import type { DatabaseTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { rememberFirstSources, type KeyLookup } from "@/lib/pipeline/cross-checks";
import { createRowChecks } from "@/lib/pipeline/row-checks";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import type { CheckPreviewRow } from "./preview-checks";
import type { PreviewIssueRow, PreviewRecordRow } from "./preview-row";

/**
 * Checks the records an incremental run just mapped for replaced source ids; returns the issues to store with them.
 * `contactsUsableBefore`: contacts that usable records it replaced named (then usable, as a missing contact is an error).
 */
export type CheckReplaced = (records: PreviewRecordRow[], contactsUsableBefore: ReadonlySet<string>) => Promise<PreviewIssueRow[]>;

/** The checks an incremental run applies as it maps, once what the records name is final. */
export interface IncrementalChecks {
  /** The vehicles and appointments of the source ids it replaces. */
  replaced: CheckReplaced;
  /** A type it reads whole (the openings), row by row in the source's order. */
  wholeRead(): CheckPreviewRow;
}

/**
 * The checks of a full run (lib/pipeline/cross-checks.ts) for what an incremental run maps after the catalogue and the
 * contacts are checked (lib/preview/recheck-preview.ts `recheckTargets`), applied as it is mapped instead of in SQL
 * after it is stored: what these records name is then final.
 * - Duplicates: a replaced key's records are all replaced together (the key is the trimmed source id, and a
 *   replacement re-reads every spelling of it), and a type read whole is all read, so a key's first record by position
 *   is among the records checked together.
 * - References: the usable calendars, categories and services (a few dozen, read once) and the usable contacts among
 *   those the records name: one a replaced usable record named is usable unless its usability flipped in this run (the
 *   flipped contacts are read once; recheckDependents checks what names them again in any case); the others are
 *   looked up per batch.
 */
export async function createIncrementalChecks(tx: DatabaseTransaction, locationId: string): Promise<IncrementalChecks> {
  const catalogue = await queryRows<{ record_type: string; record_key: string }>(
    tx,
    sql`select record_type, record_key from preview_records
        where location_id = ${locationId} and record_type in ('calendars', 'service_categories', 'services')
          and record_key is not null and status in ${sendableStatusList}`,
  );
  const usableCatalogue = new Set(catalogue.map((row) => `${row.record_type}|${row.record_key}`));
  // Contacts that became usable or stopped being usable in this run (recheckTargets): a few, where a name changed hands.
  const flipped = new Set(
    (await queryRows<{ record_key: string }>(tx, sql`select record_key from preview_flipped_contacts`)).map((row) => row.record_key),
  );
  const inCatalogue = (type: string, key: string) => usableCatalogue.has(`${type}|${key}`);
  // Every record a duplicate check meets here may repeat a key of another among them.
  const checksWith = (isUsable: KeyLookup) =>
    createRowChecks(
      rememberFirstSources(() => true),
      isUsable,
    );
  return {
    async replaced(records, contactsUsableBefore) {
      const started = phaseClock.start();
      // A contact usable before this run and not flipped is usable now; only the others are looked up.
      const knownUsable = (key: string) => contactsUsableBefore.has(key) && !flipped.has(key);
      const named = [
        ...new Set(records.flatMap((record) => (record.ref_contact === null || knownUsable(record.ref_contact) ? [] : [record.ref_contact]))),
      ];
      const contacts = named.length
        ? await queryRows<{ record_key: string }>(
            tx,
            sql`select record_key from preview_records
                where location_id = ${locationId} and record_type = 'contact_details'
                  and record_key = any(${sql.param(named)}::text[]) and status in ${sendableStatusList}`,
          )
        : [];
      const usableContacts = new Set(contacts.map((row) => row.record_key));
      const check = checksWith((type, key) => (type === "contact_details" ? knownUsable(key) || usableContacts.has(key) : inCatalogue(type, key)));
      // By position, as the SQL checks rank a key's records: the first is the one with the lowest seq.
      const issues = [...records].sort((first, second) => first.seq - second.seq).flatMap((record) => check(record));
      phaseClock.stop("check", started);
      return issues;
    },
    wholeRead: () => checksWith(inCatalogue),
  };
}

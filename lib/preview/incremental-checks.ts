import { sql } from "drizzle-orm";
import type { DatabaseTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { rememberFirstSources } from "@/lib/pipeline/cross-checks";
import { createRowChecks } from "@/lib/pipeline/row-checks";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import type { CheckPreviewRow } from "./preview-checks";
import type { PreviewIssueRow, PreviewRecordRow } from "./preview-row";

/** Checks the records an incremental run just mapped for replaced source ids; returns the issues to store with them. */
export type CheckReplaced = (records: PreviewRecordRow[]) => Promise<PreviewIssueRow[]>;

/** The checks an incremental run applies as it maps, once what the records name is final. */
export interface IncrementalChecks {
  /** The vehicles and appointments of the source ids it replaces. */
  replaced: CheckReplaced;
  /** A type it reads whole (the openings), row by row in the source's order. */
  wholeRead(): CheckPreviewRow;
}

const usable = sql.raw("('valid', 'warning')");

/**
 * The checks of a full run (lib/pipeline/cross-checks.ts) for what an incremental run maps after the catalogue and the
 * contacts are checked (lib/preview/recheck-preview.ts `recheckTargets`), applied as it is mapped instead of in SQL
 * after it is stored: what these records name is then final.
 * - Duplicates: a replaced key's records are all replaced together (the key is the trimmed source id, and a
 *   replacement re-reads every spelling of it), and a type read whole is all read, so a key's first record by position
 *   is among the records checked together.
 * - References: the usable calendars, categories and services (a few dozen, read once) and the usable contacts among
 *   those the records name (looked up per batch).
 */
export async function createIncrementalChecks(tx: DatabaseTransaction, locationId: string): Promise<IncrementalChecks> {
  const catalogue = await queryRows<{ record_type: string; record_key: string }>(
    tx,
    sql`select record_type, record_key from preview_records
        where location_id = ${locationId} and record_type in ('calendars', 'service_categories', 'services')
          and record_key is not null and status in ${usable}`,
  );
  const usableCatalogue = new Set(catalogue.map((row) => `${row.record_type}|${row.record_key}`));
  const inCatalogue = (type: string, key: string) => usableCatalogue.has(`${type}|${key}`);
  return {
    async replaced(records) {
      const started = phaseClock.start();
      const named = [...new Set(records.flatMap((record) => (record.ref_contact === null ? [] : [record.ref_contact])))];
      const contacts = named.length
        ? await queryRows<{ record_key: string }>(
            tx,
            sql`select record_key from preview_records
                where location_id = ${locationId} and record_type = 'contact_details'
                  and record_key = any(${sql.param(named)}::text[]) and status in ${usable}`,
          )
        : [];
      const usableContacts = new Set(contacts.map((row) => row.record_key));
      const check = createRowChecks(
        rememberFirstSources(() => true),
        (type, key) => (type === "contact_details" ? usableContacts.has(key) : inCatalogue(type, key)),
      );
      // By position, as the SQL checks rank a key's records: the first is the one with the lowest seq.
      const issues = [...records].sort((first, second) => first.seq - second.seq).flatMap((record) => check(record));
      phaseClock.stop("check", started);
      return issues;
    },
    wholeRead: () =>
      createRowChecks(
        rememberFirstSources(() => true),
        inCatalogue,
      ),
  };
}

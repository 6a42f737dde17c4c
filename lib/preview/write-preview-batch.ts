import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { isTransaction, queryRows } from "@/db/raw-sql";
import { copyRows, type ColumnValues } from "@/db/copy-rows";
import { DomainError } from "@/lib/errors/domain-error";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import type { PreviewIssueRow, PreviewRecordRow } from "./preview-row";

export const recordColumns = [
  "location_id",
  "run_id",
  "record_type",
  "seq",
  "source_id",
  "record_key",
  "status",
  "mapped_status",
  "excluded_reason",
  "payload",
  "content_hash",
  "local_date",
  "ref_contact",
  "ref_service",
  "ref_calendar",
  "ref_category",
  "ref_calendars",
  "search_text",
  "issue_count",
  "dropped_references",
] as const satisfies readonly (keyof PreviewRecordRow)[];

export const issueColumns = [
  "location_id",
  "record_type",
  "seq",
  "severity",
  "field",
  "code",
  "reason",
  "original",
  "cross_check",
] as const satisfies readonly (keyof PreviewIssueRow)[];

/** The payload as the JSON made for its hash (lib/preview/preview-row.ts), unless a check changed it since: not encoded twice. */
export const payloadAsMade: ColumnValues<PreviewRecordRow> = { payload: (record) => record.payload_json ?? record.payload };

/**
 * preview_records has no foreign key to its location (db/schema/previews.ts): the batch takes the lock its check took
 * per row, once, so a location deleted before fails the write and one being deleted waits until the write's
 * transaction ends (then the delete's trigger takes the records with it).
 */
export async function lockLocation(tx: DatabaseOrTransaction, locationId: string): Promise<void> {
  const [location] = await queryRows(tx, sql`select 1 from locations where id = ${locationId} for key share`);
  if (!location) throw new DomainError("NOT_FOUND", "The location was deleted while its preview was computed.");
}

/** A batch of the source becomes one COPY of records and one of issues, in the caller's transaction (else its own). */
export async function writePreviewBatch(db: DatabaseOrTransaction, records: PreviewRecordRow[], issues: PreviewIssueRow[]): Promise<void> {
  const locationId = records[0]?.location_id ?? issues[0]?.location_id;
  if (!locationId) return;
  const started = phaseClock.start();
  const write = async (tx: DatabaseOrTransaction) => {
    await lockLocation(tx, locationId);
    await copyRows(tx, "preview_records", recordColumns, records, payloadAsMade);
    await copyRows(tx, "preview_issues", issueColumns, issues);
  };
  // In the caller's transaction as it is (a savepoint per batch would cost two more round trips), else in its own.
  await (isTransaction(db) ? write(db) : db.transaction(write));
  phaseClock.stop("record", started);
}

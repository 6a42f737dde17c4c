import type postgres from "postgres";
import { copyRows } from "@/db/copy-rows";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import type { PreviewIssueRow, PreviewRecordRow } from "./preview-row";

const recordColumns = [
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

const issueColumns = [
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

/** A batch of the source becomes one COPY of records and one of issues. */
export async function writePreviewBatch(
  sql: postgres.Sql | postgres.TransactionSql,
  records: PreviewRecordRow[],
  issues: PreviewIssueRow[],
): Promise<void> {
  const started = phaseClock.start();
  await copyRows(sql, "preview_records", recordColumns, records);
  await copyRows(sql, "preview_issues", issueColumns, issues);
  phaseClock.stop("record", started);
}

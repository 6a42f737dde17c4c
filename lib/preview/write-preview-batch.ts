import type postgres from "postgres";
import { copyRows } from "@/db/copy-rows";
import type { PreviewIssueRow, PreviewRecordRow } from "./preview-row";

const recordColumns = [
  "run_id",
  "record_type",
  "seq",
  "source_id",
  "record_key",
  "status",
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
  "diff",
  "issue_count",
] as const satisfies readonly (keyof PreviewRecordRow)[];

const issueColumns = ["run_id", "record_type", "seq", "severity", "field", "code", "reason", "original"] as const satisfies readonly (keyof PreviewIssueRow)[];

/** A batch of the source becomes one COPY of records and one of issues. */
export async function writePreviewBatch(sql: postgres.Sql, records: PreviewRecordRow[], issues: PreviewIssueRow[]): Promise<void> {
  await copyRows(sql, "preview_records", recordColumns, records);
  await copyRows(sql, "preview_issues", issueColumns, issues);
}

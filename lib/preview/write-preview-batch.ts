import type postgres from "postgres";
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

// Postgres takes at most 65,535 parameters per statement.
const ROWS_PER_STATEMENT = Math.floor(65_535 / recordColumns.length);

/** One bulk insert per ≤3,800 rows: a batch of the source becomes one or two statements, not one per row. */
export async function writePreviewBatch(sql: postgres.Sql, records: PreviewRecordRow[], issues: PreviewIssueRow[]): Promise<void> {
  for (let start = 0; start < records.length; start += ROWS_PER_STATEMENT) {
    // Serialised here: the server knows the column is jsonb and parses the text.
    const chunk = records.slice(start, start + ROWS_PER_STATEMENT).map((row) => ({ ...row, payload: row.payload === null ? null : JSON.stringify(row.payload) }));
    await sql`insert into preview_records ${sql(chunk, ...recordColumns)}`;
  }
  for (let start = 0; start < issues.length; start += ROWS_PER_STATEMENT) {
    await sql`insert into preview_issues ${sql(issues.slice(start, start + ROWS_PER_STATEMENT), ...issueColumns)}`;
  }
}

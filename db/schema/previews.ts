import { sql } from "drizzle-orm";
import { date, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { locations } from "./locations";

export const previewStatus = pgEnum("preview_status", ["queued", "running", "succeeded", "failed"]);

/** Per record type: rows read so far (progress) and, at the end, the counts the preview page shows. */
export type PreviewProgress = Record<string, { rows: number; done: boolean }>;
export type PreviewCounts = Record<
  string,
  { sourceRows: number; valid: number; warnings: number; errors: number; excludedByRule: number; new: number; changed: number; unchanged: number; removed: number }
>;

/** One computation of what a location's sync would send. The latest succeeded run is the cached preview. */
export const previewRuns = pgTable(
  "preview_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id, { onDelete: "cascade" }),
    status: previewStatus("status").notNull().default("queued"),
    /** The source's fingerprint when the run started: the cache is valid while it is unchanged. */
    sourceFingerprint: text("source_fingerprint"),
    requestedByEmail: text("requested_by_email"),
    progress: jsonb("progress").$type<PreviewProgress>().notNull().default({}),
    counts: jsonb("counts").$type<PreviewCounts>(),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    index("preview_runs_location_idx").on(table.locationId, table.createdAt),
    // At most one run in flight per location, whichever process asks.
    uniqueIndex("preview_runs_one_active").on(table.locationId).where(sql`${table.status} in ('queued', 'running')`),
  ],
);

/** One mapped source row of a run: the record that would be sent (or why not), its references and its diff. */
export const previewRecords = pgTable(
  "preview_records",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => previewRuns.id, { onDelete: "cascade" }),
    recordType: text("record_type").notNull(),
    /** Position in the source's order. */
    seq: integer("seq").notNull(),
    sourceId: text("source_id").notNull(),
    /** external_id, or for openings "<service>|<calendar>|<start_at>". */
    recordKey: text("record_key"),
    /** valid | warning | error | excluded */
    status: text("status").notNull(),
    excludedReason: text("excluded_reason"),
    payload: jsonb("payload"),
    contentHash: text("content_hash"),
    /** Appointments: local date of the start, the unit of import ranges. */
    localDate: date("local_date"),
    refContact: text("ref_contact"),
    refService: text("ref_service"),
    refCalendar: text("ref_calendar"),
    refCategory: text("ref_category"),
    refCalendars: text("ref_calendars").array(),
    /** Lower-cased text to search in: ids, names, email. */
    searchText: text("search_text").notNull().default(""),
    /** new | changed | unchanged (valid records only). */
    diff: text("diff"),
    issueCount: integer("issue_count").notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.runId, table.recordType, table.seq] }),
    index("preview_records_key_idx").on(table.runId, table.recordType, table.recordKey),
    // Appointment imports select one local date range of a run at a time.
    index("preview_records_date_idx").on(table.runId, table.recordType, table.localDate),
  ],
);

export const previewIssues = pgTable(
  "preview_issues",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => previewRuns.id, { onDelete: "cascade" }),
    recordType: text("record_type").notNull(),
    seq: integer("seq").notNull(),
    severity: text("severity").notNull(),
    field: text("field").notNull(),
    code: text("code").notNull(),
    reason: text("reason").notNull(),
    original: text("original"),
  },
  (table) => [index("preview_issues_run_idx").on(table.runId, table.recordType, table.code), index("preview_issues_record_idx").on(table.runId, table.recordType, table.seq)],
);

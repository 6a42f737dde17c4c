import { sql } from "drizzle-orm";
import { boolean, date, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { locations } from "./locations";

export const previewStatus = pgEnum("preview_status", ["queued", "running", "succeeded", "failed"]);

/** Per record type: rows read so far (progress) and, at the end, the counts the preview page shows. */
export type PreviewProgress = Record<string, { rows: number; done: boolean }>;
export type PreviewCounts = Record<
  string,
  {
    sourceRows: number;
    valid: number;
    warnings: number;
    errors: number;
    excludedByRule: number;
    new: number;
    changed: number;
    unchanged: number;
    removed: number;
  }
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
    /** full: every source row mapped; incremental: only rows changed since the previous run (lib/preview/compute-preview.ts). */
    mode: text("mode"),
    /** The source's clock when this run began reading: the next run re-reads rows changed after it (minus a margin). */
    sourceReadAt: timestamp("source_read_at", { withTimezone: true }),
    /** The epoch of the preview's tables (preview_store) this run's records were written in: shown and sent from only while it is current. */
    storeEpoch: uuid("store_epoch"),
    /** What the mapping depended on (zone, country, automotive, SQL files, mapping version): another basis means a full run. */
    mappingBasis: text("mapping_basis"),
    /** Local wall time up to which appointments were read: a later run adds the days that entered the window. */
    appointmentsUntil: text("appointments_until"),
    requestedByEmail: text("requested_by_email"),
    /** A person asked to rebuild: map every source row, whatever the base run. */
    rebuild: boolean("rebuild").notNull().default(false),
    progress: jsonb("progress").$type<PreviewProgress>().notNull().default({}),
    /** Null until counted: a sync session's run is counted after the session (lib/preview/recount-preview.ts). */
    counts: jsonb("counts").$type<PreviewCounts>(),
    /** When the counts were read: new, changed and removed are against what the upstream had accepted by then. */
    countedAt: timestamp("counted_at", { withTimezone: true }),
    /**
     * A first run: when its counts and issues were complete. The records a sync sends are stored for browsing after
     * that, and the run is running until they are (lib/preview/first-run-sink.ts).
     */
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    error: text("error"),
    /**
     * The claim of the process computing the run (lib/preview/preview-run-lease.ts), renewed while it computes: a run in
     * flight whose lease expired lost its process, and whoever finds it fails it. Null for a run queued for a job.
     */
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    /** Raised by each claim: a process writes the run's results only while the token is still its own. */
    fencingToken: integer("fencing_token").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    index("preview_runs_location_idx").on(table.locationId, table.createdAt),
    // At most one run in flight per location, whichever process asks.
    uniqueIndex("preview_runs_one_active")
      .on(table.locationId)
      .where(sql`${table.status} in ('queued', 'running')`),
  ],
);

/**
 * One mapped source row of a location: the record a sync would send (or why not) and its references.
 * The set belongs to the location, not to a run: a run re-maps only the source rows changed since the
 * last one and rewrites those rows in one transaction, so readers always see one whole run's result.
 * Whether a record is new, changed or unchanged is not stored: it is read against synced_records.
 */
export const previewRecords = pgTable(
  "preview_records",
  {
    /**
     * No foreign key: its check cost 3.6 µs of a first run's ~15 µs of PostgreSQL per row. Instead a write takes the
     * location's row lock the check took, once per batch (lib/preview/write-preview-batch.ts), and deleting a location
     * deletes its records (trigger `locations_delete_preview_records`, migration 0017).
     */
    locationId: uuid("location_id").notNull(),
    recordType: text("record_type").notNull(),
    /** Position in the source's order (rows added later come after the ones read before). */
    seq: integer("seq").notNull(),
    sourceId: text("source_id").notNull(),
    /** external_id, or for openings "<service>|<calendar>|<start_at>". */
    recordKey: text("record_key"),
    /** valid | warning | error | excluded, after the cross-checks (duplicates, references). */
    status: text("status").notNull(),
    /** The status the mapping alone gave: what a cross-check starts again from. */
    mappedStatus: text("mapped_status").notNull(),
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
    issueCount: integer("issue_count").notNull().default(0),
    /**
     * References a cross-check took out of the payload because their target is no longer sent, with the mapped hash:
     * `{ fields: { calendar_external_id: "st-1" }, hash: "<mapped content_hash>" }`; a re-check puts them back first.
     */
    droppedReferences: jsonb("dropped_references").$type<{ fields: Record<string, unknown>; hash: string | null }>(),
    /** The run that last mapped this row. */
    runId: uuid("run_id").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.locationId, table.recordType, table.seq] }),
    index("preview_records_key_idx").on(table.locationId, table.recordType, table.recordKey),
    // Appointment imports select one local date range at a time. Only appointments have a local date: the other
    // records (a fifth of a first run's) cost this index nothing.
    index("preview_records_date_idx")
      .on(table.locationId, table.recordType, table.localDate)
      .where(sql`${table.localDate} is not null`),
    // Each step counts the records it leaves out: these are a few of the location's million, found without a scan.
    // The predicate is lib/pipeline/record-status.ts skippedStatuses (db/ does not import lib/), as queries spell it.
    index("preview_records_skipped_idx")
      .on(table.locationId, table.recordType, table.status)
      .where(sql`${table.status} in ('error', 'excluded')`),
    // Deliberately no more: every index is paid for on each of a first run's million rows (the partial one only on the
    // skipped). A changed source id's rows are found by record_key (lib/preview/map-source-rows.ts), records naming a
    // changed contact by one scan per run.
  ],
);

export const previewIssues = pgTable(
  "preview_issues",
  {
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id, { onDelete: "cascade" }),
    recordType: text("record_type").notNull(),
    seq: integer("seq").notNull(),
    severity: text("severity").notNull(),
    field: text("field").notNull(),
    code: text("code").notNull(),
    reason: text("reason").notNull(),
    original: text("original"),
    /** Found by a cross-check (duplicate, missing reference) rather than by mapping the row: checked again when either side changes. */
    crossCheck: boolean("cross_check").notNull().default(false),
  },
  (table) => [
    index("preview_issues_type_idx").on(table.locationId, table.recordType, table.code),
    index("preview_issues_record_idx").on(table.locationId, table.recordType, table.seq),
  ],
);

/**
 * How many preview_records the location holds of each type, written in the transaction that writes them
 * (lib/preview/preview-record-counts.ts): an incremental run compares it with the source's count to find deleted rows
 * without counting a million records. A type without a row is counted.
 */
export const previewRecordCounts = pgTable(
  "preview_record_counts",
  {
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id, { onDelete: "cascade" }),
    recordType: text("record_type").notNull(),
    rows: integer("rows").notNull(),
    /**
     * The same records per bucket (lib/preview/record-buckets.ts: appointments by local date, customers and vehicles
     * by the end of their source id), where an incremental run looks for deleted rows; null: counted when needed.
     */
    buckets: jsonb("buckets").$type<Record<string, number>>(),
  },
  (table) => [primaryKey({ columns: [table.locationId, table.recordType] })],
);

/**
 * One row: the epoch of what the preview's tables hold. preview_records, preview_issues, preview_record_counts and
 * this table are UNLOGGED (migration 0034: their writes skip the write-ahead log; they are derived from the source and
 * can be computed again). PostgreSQL empties all four after a crash, not after a clean stop: the row goes with them,
 * and lib/preview/preview-store.ts then retires what the logged tables say of the lost records and starts a new epoch.
 */
export const previewStore = pgTable("preview_store", {
  epoch: uuid("epoch").primaryKey().defaultRandom(),
});

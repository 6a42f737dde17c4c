import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, date, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { environmentName } from "./enums";
import { locations } from "./locations";
import { previewRuns } from "./previews";

export const syncTrigger = pgEnum("sync_trigger", ["schedule", "manual", "resume", "cli"]);
export const syncSessionStatus = pgEnum("sync_session_status", ["queued", "running", "succeeded", "failed", "cancelled"]);
export const syncStepName = pgEnum("sync_step_name", [
  "open",
  "calendars",
  "service_categories",
  "services",
  "contact_details",
  "vehicles",
  "appointments",
  "openings",
  "close",
]);
export const syncStepStatus = pgEnum("sync_step_status", ["pending", "running", "succeeded", "failed", "skipped", "cancelled"]);

/** What the safety valve found for one step: removals, what the upstream holds, the threshold, a few example keys. */
export interface RemovalCheck {
  step: "calendars" | "service_categories" | "services" | "contact_details" | "appointments";
  removals: number;
  held: number;
  threshold: number;
  examples: string[];
}
/** What a session knew of the source before reading it: the next session is quiet when none of it moved. */
export interface SourceState {
  /** The source's fingerprint (lib/source: count and latest change of every table of the source key). */
  fingerprint: string;
  /** What mapping depends on besides the rows (lib/preview/mapping-basis.ts). */
  mappingBasis: string;
  /** The end of the appointment window read (local wall time, excluded). */
  appointmentsUntil: string | null;
}

/** A scoped replay: these steps only (appointments: of these dates), with why (lib/sync/replay). */
export interface SessionReplay {
  steps: ("calendars" | "service_categories" | "services" | "contact_details" | "vehicles" | "appointments" | "openings")[];
  /** Local dates, both included; only with the appointments step alone. Null: the whole window. */
  from: string | null;
  to: string | null;
  reason: string;
}

export interface RemovalStop {
  checks: RemovalCheck[];
}
export interface ConfirmedRemovals {
  /** Per step, the most removals the person confirmed. */
  limits: Partial<Record<RemovalCheck["step"], number>>;
  byEmail: string | null;
  reason: string;
}

/** One run of a location's sync-session protocol (spec 4.4 item 6). */
export const syncSessions = pgTable(
  "sync_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id, { onDelete: "cascade" }),
    environment: environmentName("environment").notNull(),
    /** The upstream location it talks to, with `environment`: only a later session to the same one inherits its open upstream session. */
    upstreamLocationId: text("upstream_location_id"),
    trigger: syncTrigger("trigger").notNull(),
    requestedByEmail: text("requested_by_email"),
    full: boolean("full").notNull().default(false),
    /** Which of calendars / service_categories / services this session sends. */
    optionalSteps: text("optional_steps").array().notNull(),
    status: syncSessionStatus("status").notNull().default("queued"),
    /** We sent sync in progress true and not yet false: campaigns wait on us. */
    upstreamOpen: boolean("upstream_open").notNull().default(false),
    currentStep: syncStepName("current_step"),
    previewRunId: uuid("preview_run_id").references(() => previewRuns.id, { onDelete: "set null" }),
    resumesSessionId: uuid("resumes_session_id"),
    /** Scheduled runs: the local date they are for (one per location and day). */
    scheduledFor: date("scheduled_for"),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    /** Incremented by every claim; every write of a worker is conditional on the token it claimed. */
    fencingToken: bigint("fencing_token", { mode: "number" }).notNull().default(0),
    cancelRequestedAt: timestamp("cancel_requested_at", { withTimezone: true }),
    /** Set when the removal safety valve stopped the session before sending: what it would have removed (lib/sync/removal-guard.ts). */
    removalStop: jsonb("removal_stop").$type<RemovalStop>(),
    /** Removals a person confirmed for this session (per step: at most this many), with who and why. */
    confirmedRemovals: jsonb("confirmed_removals").$type<ConfirmedRemovals>(),
    /**
     * Sent straight from the source (lib/sync/stream): a first sync of a location the upstream held nothing of, and
     * every resume of one. Others send from the location's preview records.
     */
    streamed: boolean("streamed").notNull().default(false),
    /**
     * The source as this session read it (lib/sync/quiet/source-state.ts): taken before its first read, kept by a
     * takeover. The next session compares the source with it to know whether anything changed since.
     */
    sourceState: jsonb("source_state").$type<SourceState>(),
    /** Nothing changed in the source since the last session (lib/sync/quiet): only what time moves is sent. */
    quiet: boolean("quiet").notNull().default(false),
    /** A scoped replay (lib/sync/replay): only these steps are sent again, read from the source. Null: a whole session. */
    replay: jsonb("replay").$type<SessionReplay>(),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    // The history and the latest-session probes: newest first, the id breaking ties for keyset pages.
    index("sync_sessions_location_idx").on(table.locationId, table.createdAt.desc(), table.id),
    // Fleet-wide views: today's counts, the 30-day chart and the newest sessions across locations.
    index("sync_sessions_created_idx").on(table.createdAt, table.id),
    // Fleet-wide views by the day sessions ended: today's succeeded / failed tiles, the durations chart, the ended= filter.
    index("sync_sessions_finished_idx").on(table.finishedAt),
    // One session in flight per location, whichever process asks.
    uniqueIndex("sync_sessions_one_open")
      .on(table.locationId)
      .where(sql`${table.status} in ('queued', 'running')`),
    uniqueIndex("sync_sessions_one_per_day").on(table.locationId, table.scheduledFor),
  ],
);

/** One step of a session, in protocol order. */
export const syncSteps = pgTable(
  "sync_steps",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => syncSessions.id, { onDelete: "cascade" }),
    name: syncStepName("name").notNull(),
    position: integer("position").notNull(),
    status: syncStepStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    recordsSent: integer("records_sent").notNull().default(0),
    /** Valid records only are sent: these failed the mapping's checks. */
    recordsInvalid: integer("records_invalid").notNull().default(0),
    /** Left out by rule (canceled, no-show). */
    recordsExcluded: integer("records_excluded").notNull().default(0),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
    error: text("error"),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [uniqueIndex("sync_steps_session_name").on(table.sessionId, table.name)],
);

/** One import of a step: an appointment date range, one service's openings, a chunk of contacts. */
export const syncStepItems = pgTable(
  "sync_step_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    stepId: uuid("step_id")
      .notNull()
      .references(() => syncSteps.id, { onDelete: "cascade" }),
    /** What the item sends, e.g. "2026-01-01..2026-01-31", "service svc-1", "all seq 0-4999". */
    key: text("key").notNull(),
    position: integer("position").notNull().default(0),
    status: syncStepStatus("status").notNull().default("pending"),
    recordsSent: integer("records_sent").notNull().default(0),
    /**
     * Records the item's preview sent as usable that it left out, checked again against what the upstream holds (an
     * opening whose calendar a left-out step never sent: lib/sync/plan/catalogue-recheck.ts); the step counts them invalid.
     */
    recordsLeftOut: integer("records_left_out").notNull().default(0),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [uniqueIndex("sync_step_items_step_key").on(table.stepId, table.key)],
);

/** One HTTP exchange with the upstream, as the client reported it (path already redacted). */
export const syncAttempts = pgTable(
  "sync_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => syncSessions.id, { onDelete: "cascade" }),
    stepId: uuid("step_id").references(() => syncSteps.id, { onDelete: "cascade" }),
    itemId: uuid("item_id").references(() => syncStepItems.id, { onDelete: "cascade" }),
    operation: text("operation").notNull(),
    attempt: integer("attempt").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status"),
    durationMs: integer("duration_ms").notNull(),
    retryDelayMs: integer("retry_delay_ms"),
    error: text("error"),
    records: integer("records"),
    bytes: bigint("bytes", { mode: "number" }),
    /** An upload sent to its end: the SHA-256 (hex) of its body as sent, to reconcile with what arrived. */
    bodySha256: text("body_sha256"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    /**
     * The exchange as the client saw it, redacted (lib/upstream/exchange-record.ts): secret headers blanked, bodies
     * stripped of credentials and upload tokens and cut to a few KB; the *_bytes columns keep their full size. Null for
     * attempts recorded before these columns, and for streamed upload bodies (records, not kept).
     */
    requestHeaders: jsonb("request_headers").$type<Record<string, string>>(),
    requestBody: text("request_body"),
    requestBodyBytes: integer("request_body_bytes"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    responseBody: text("response_body"),
    responseBodyBytes: integer("response_body_bytes"),
  },
  (table) => [
    index("sync_attempts_session_idx").on(table.sessionId, table.id),
    // Deleting a step or an item (a pruned session) looks up its attempts: without these, one table scan each.
    index("sync_attempts_step_idx").on(table.stepId),
    index("sync_attempts_item_idx").on(table.itemId),
    // The attempts whose details retention has yet to remove (lib/retention): the index empties as they are reduced.
    index("sync_attempts_details_kept_idx")
      .on(table.startedAt)
      .where(
        sql`${table.requestHeaders} is not null or ${table.requestBody} is not null or ${table.responseHeaders} is not null or ${table.responseBody} is not null`,
      ),
  ],
);

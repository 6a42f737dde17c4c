import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgSchema, primaryKey, real, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

// The upstream simulator keeps all of its state apart from the app's own tables.
export const sandbox = pgSchema("sandbox");

export const sandboxEnvironments = sandbox.table("environments", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull().unique(),
  // Secrets are kept only as sha256 hashes: they are random, so a plain hash is enough.
  apiKeyHash: text("api_key_hash").notNull().unique(),
  clientId: text("client_id").notNull(),
  clientSecretHash: text("client_secret_hash").notNull(),
  dataSourceName: text("data_source_name").notNull(),
  // Which date-time form records must use (ARCHITECTURE.md: the spec's form unless switched).
  dateTimeStyle: text("date_time_style", { enum: ["spec", "rfc3339"] })
    .notNull()
    .default("spec"),
  // How it answers where the spec shows no response body (lib/sandbox/response-shapes.ts): the client must accept every one.
  responseShape: text("response_shape", { enum: ["documented", "empty", "no_content", "nested", "text", "extra"] })
    .notNull()
    .default("documented"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const sandboxUsers = sandbox.table(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: uuid("environment_id")
      .notNull()
      .references(() => sandboxEnvironments.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("sandbox_users_email").on(table.environmentId, sql`lower(${table.email})`)],
);

export const sandboxLocations = sandbox.table("locations", {
  // The upstream's own location id, used in every `/locations/{location_id}` path.
  id: text("id").primaryKey(),
  environmentId: uuid("environment_id")
    .notNull()
    .references(() => sandboxEnvironments.id, { onDelete: "cascade" }),
  ownerId: uuid("owner_id")
    .notNull()
    .references(() => sandboxUsers.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  dataSource: text("data_source"),
  syncInProgress: boolean("sync_in_progress").notNull().default(false),
  currentSessionId: uuid("current_session_id"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const sandboxAccessTokens = sandbox.table("access_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  kind: text("kind", { enum: ["user", "location"] }).notNull(),
  userId: uuid("user_id")
    .notNull()
    .references(() => sandboxUsers.id, { onDelete: "cascade" }),
  locationId: text("location_id").references(() => sandboxLocations.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
});

export const sandboxSessions = sandbox.table(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    locationId: text("location_id")
      .notNull()
      .references(() => sandboxLocations.id, { onDelete: "cascade" }),
    dataSource: text("data_source").notNull(),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (table) => [index("sandbox_sessions_location").on(table.locationId, table.openedAt)],
);

export const sandboxSessionEvents = sandbox.table(
  "session_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sandboxSessions.id, { onDelete: "cascade" }),
    // "opened" | "campaigns_released" | …
    kind: text("kind").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("sandbox_session_events_session").on(table.sessionId)],
);

export const sandboxRecordTypes = ["calendars", "service_categories", "services", "contact_details", "vehicles", "appointments", "openings"] as const;
export type SandboxRecordType = (typeof sandboxRecordTypes)[number];

export const sandboxRecords = sandbox.table(
  "records",
  {
    locationId: text("location_id")
      .notNull()
      .references(() => sandboxLocations.id, { onDelete: "cascade" }),
    type: text("type", { enum: sandboxRecordTypes }).notNull(),
    // external_id; for openings "service|calendar|start_at" (they have no id of their own).
    key: text("key").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    // Appointments/openings: the local calendar date of start_at, for range replacement.
    localDate: text("local_date"),
    serviceExternalId: text("service_external_id"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.locationId, table.type, table.key] }),
    index("sandbox_records_range").on(table.locationId, table.type, table.localDate),
  ],
);

export const sandboxUploads = sandbox.table(
  "uploads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenHash: text("token_hash").notNull().unique(),
    kind: text("kind", { enum: ["contact_details", "vehicles", "appointments", "openings"] }).notNull(),
    locationId: text("location_id")
      .notNull()
      .references(() => sandboxLocations.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sandboxSessions.id, { onDelete: "cascade" }),
    // start_date, end_date, service_external_id of the POST that issued the address.
    parameters: jsonb("parameters").$type<Record<string, string>>().notNull().default({}),
    // issued → receiving → accepted | rejected → applied
    status: text("status").notNull().default("issued"),
    recordCount: integer("record_count"),
    byteCount: integer("byte_count"),
    /** SHA-256 (hex) of the body as it arrived. */
    bodySha256: text("body_sha256"),
    rejection: jsonb("rejection").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [index("sandbox_uploads_session").on(table.sessionId)],
);

// Records of an accepted upload, waiting for the session to close.
export const sandboxStagedRecords = sandbox.table(
  "staged_records",
  {
    uploadId: uuid("upload_id")
      .notNull()
      .references(() => sandboxUploads.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    key: text("key").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    localDate: text("local_date"),
  },
  (table) => [primaryKey({ columns: [table.uploadId, table.position] })],
);

export const sandboxRequestLog = sandbox.table(
  "request_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    locationId: text("location_id"),
    method: text("method").notNull(),
    // Never holds a token or an upload address.
    path: text("path").notNull(),
    endpoint: text("endpoint").notNull(),
    status: integer("status").notNull(),
    code: text("code"),
    reason: text("reason"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("sandbox_request_log_location").on(table.locationId, table.id)],
);

export const sandboxFaults = sandbox.table("faults", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  // An endpoint name (see lib/sandbox/endpoints.ts) or "upload".
  target: text("target").notNull(),
  mode: jsonb("mode").$type<Record<string, unknown>>().notNull(),
  // Fires this many more times; null = no count limit (probability decides).
  remaining: integer("remaining"),
  probability: real("probability"),
  seed: integer("seed").notNull().default(1),
  draws: integer("draws").notNull().default(0),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

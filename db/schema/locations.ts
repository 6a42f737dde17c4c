import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { environmentName } from "./enums";

/** A business site of a management-system customer, linked to one upstream Location. */
export const locations = pgTable(
  "locations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** IANA time zone, e.g. Europe/Berlin: local dates, date-times and the daily sync time. */
    timeZone: text("time_zone").notNull().default("UTC"),
    /** ISO 3166-1 alpha-2: the default region of phone numbers. */
    country: text("country").notNull().default("US"),
    environment: environmentName("environment").notNull().default("staging"),
    upstreamLocationId: text("upstream_location_id"),
    /** Which location of the management system this one reads. */
    sourceKey: text("source_key"),
    /** Why the next sync session must be full (e.g. the source key changed); cleared when a full session succeeds. */
    fullSyncReason: text("full_sync_reason"),
    automotive: boolean("automotive").notNull().default(false),
    /** Daily sync time, local HH:MM within 09:00–19:00. */
    syncTime: text("sync_time").notNull().default("10:00"),
    /** Sealed with lib/crypto (context: locations.token:<id>). */
    locationTokenEncrypted: text("location_token_encrypted"),
    /** The origin (scheme://host:port) of the service that issued the token: it is sent nowhere else. */
    locationTokenOrigin: text("location_token_origin"),
    connectedAt: timestamp("connected_at", { withTimezone: true }),
    connectedByUserId: uuid("connected_by_user_id"),
    connectedByEmail: text("connected_by_email"),
    /** The upstream account the token acts as (from GET /users/me). */
    upstreamAccountEmail: text("upstream_account_email"),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    lastCheckOk: boolean("last_check_ok"),
    /** Why a person must look at this location (e.g. the upstream refused its token); null when all is well. */
    attentionReason: text("attention_reason"),
    attentionSince: timestamp("attention_since", { withTimezone: true }),
    /** Set while the daily schedule is paused (manual syncs still run). */
    schedulePausedAt: timestamp("schedule_paused_at", { withTimezone: true }),
    schedulePausedByEmail: text("schedule_paused_by_email"),
    schedulePauseReason: text("schedule_pause_reason"),
    /** Set while archived: disconnected, no schedule, history read-only, hidden from the default list. */
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    archivedByEmail: text("archived_by_email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("locations_upstream_key").on(table.environment, table.upstreamLocationId),
    index("locations_name_idx").on(sql`lower(${table.name})`, table.id),
  ],
);

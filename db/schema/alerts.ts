import { pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { locations } from "./locations";
import { syncSessions } from "./sync";

export const alertChannelKind = pgEnum("alert_channel_kind", ["webhook", "email"]);
export const alertKind = pgEnum("alert_kind", ["failed", "recovered"]);

/** Where alerts go: at most one row per kind (admin settings). */
export const alertChannels = pgTable("alert_channels", {
  kind: alertChannelKind("kind").primaryKey(),
  /** Webhook only. Sealed with lib/crypto (context: alert_channels.webhook_url:webhook): the URL may carry a token. */
  webhookUrlEncrypted: text("webhook_url_encrypted"),
  /** Email only. */
  recipients: text("recipients").array().notNull().default([]),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedByEmail: text("updated_by_email"),
});

/** What we last told people about a location, so an alert goes out once per status change across processes. */
export const locationAlertStates = pgTable("location_alert_states", {
  locationId: uuid("location_id")
    .primaryKey()
    .references(() => locations.id, { onDelete: "cascade" }),
  notifiedStatus: alertKind("notified_status").notNull(),
  sessionId: uuid("session_id").references(() => syncSessions.id, { onDelete: "set null" }),
  changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One status change to announce (an outbox row written with the session's outcome), delivered by the alerts.deliver job. */
export const alertEvents = pgTable("alert_events", {
  id: uuid("id").primaryKey().defaultRandom(),
  locationId: uuid("location_id")
    .notNull()
    .references(() => locations.id, { onDelete: "cascade" }),
  sessionId: uuid("session_id").references(() => syncSessions.id, { onDelete: "set null" }),
  kind: alertKind("kind").notNull(),
  reason: text("reason"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  webhookDeliveredAt: timestamp("webhook_delivered_at", { withTimezone: true }),
  emailDeliveredAt: timestamp("email_delivered_at", { withTimezone: true }),
  deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  lastError: text("last_error"),
});

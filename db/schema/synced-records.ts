import { date, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { locations } from "./locations";

/**
 * What the upstream accepted, per location, type and record key: the basis of
 * incremental syncs and of the preview's diff. Written only after the upstream accepted the records.
 */
export const syncedRecords = pgTable(
  "synced_records",
  {
    /**
     * No foreign key: its check cost 4.4 µs of an accepted record's ~12 µs (a first sync records a million). Every write
     * is in a session's fenced transaction (lib/sync/session-fence.ts), whose fence holds the session's row, which
     * deleting the location must delete first, so the location outlives the write; deleting a location deletes its
     * records (trigger `locations_delete_synced_records`, migration 0029).
     */
    locationId: uuid("location_id").notNull(),
    recordType: text("record_type").notNull(),
    recordKey: text("record_key").notNull(),
    contentHash: text("content_hash").notNull(),
    /** Appointments: the local date it was sent for (a move touches the old and the new date). */
    appointmentDate: date("appointment_date"),
    syncedAt: timestamp("synced_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.locationId, table.recordType, table.recordKey] }),
    // An appointment import replaces a date range: what was recorded for it is found by date.
    index("synced_records_date_idx").on(table.locationId, table.recordType, table.appointmentDate),
  ],
);

/**
 * Keys whose sendable preview record and synced_records may differ (lib/sync/unsynced-keys.ts): a superset of what an
 * incremental sync has to send, unsubscribe or re-import, so that its plan reads these keys instead of the whole location.
 * Trusted only while the location has a row in unsynced_key_ledgers.
 */
export const unsyncedKeys = pgTable(
  "unsynced_keys",
  {
    /**
     * No foreign key: an incremental preview adds thousands of keys at once, each of which the key's check looked up and
     * locked. Every insert locks the location's row once instead (lib/sync/unsynced-keys.ts `ledgerKept`); deleting a
     * location deletes its keys (trigger `locations_delete_unsynced_keys`, migration 0030).
     */
    locationId: uuid("location_id").notNull(),
    recordType: text("record_type").notNull(),
    recordKey: text("record_key").notNull(),
  },
  (table) => [primaryKey({ columns: [table.locationId, table.recordType, table.recordKey] })],
);

/** Locations whose unsynced_keys are complete: since the row was written, every change of their preview added its keys. */
export const unsyncedKeyLedgers = pgTable("unsynced_key_ledgers", {
  locationId: uuid("location_id")
    .primaryKey()
    .references(() => locations.id, { onDelete: "cascade" }),
  since: timestamp("since", { withTimezone: true }).notNull().defaultNow(),
});

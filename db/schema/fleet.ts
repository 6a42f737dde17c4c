import { pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import { locations } from "./locations";
import { syncSessions, syncStepName, syncStepStatus } from "./sync";

/**
 * The last ended run (succeeded or failed) of each step of each location, kept by a trigger on
 * sync_steps (migration 0009), so that the fleet matrix reads 7 rows per location instead of
 * every step ever run (a DISTINCT ON over the history took 8 s at 10,000 locations × 30 days).
 */
export const locationStepOutcomes = pgTable(
  "location_step_outcomes",
  {
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id, { onDelete: "cascade" }),
    step: syncStepName("step").notNull(),
    status: syncStepStatus("status").notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }).notNull(),
    sessionId: uuid("session_id").references(() => syncSessions.id, { onDelete: "set null" }),
  },
  (table) => [primaryKey({ columns: [table.locationId, table.step] })],
);

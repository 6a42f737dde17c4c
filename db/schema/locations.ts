import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

// Grows in the Locations issue; members and invites reference it already.
export const locations = pgTable("locations", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// Fixed-window counters shared by every process (sign-in, connect attempts).
export const rateLimitBuckets = pgTable("rate_limit_buckets", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  count: integer("count").notNull(),
});

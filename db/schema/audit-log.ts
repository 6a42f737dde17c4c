import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorUserId: uuid("actor_user_id"),
    // Kept as text so the entry still reads right after the user is gone.
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    targetLabel: text("target_label"),
    clientAddress: text("client_address"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [
    index("audit_log_at_idx").on(table.at.desc(), table.id.desc()),
    index("audit_log_action_idx").on(table.action, table.at.desc()),
    index("audit_log_actor_idx").on(table.actorEmail, table.at.desc()),
  ],
);

import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { environmentName } from "./enums";
import { users } from "./users";

export { environmentName };

export const environments = pgTable("environments", {
  name: environmentName("name").primaryKey(),
  baseUrl: text("base_url"),
  uploadHosts: text("upload_hosts").array().notNull().default([]),
  clientId: text("client_id"),
  dataSourceName: text("data_source_name"),
  // Sealed with lib/crypto (AES-256-GCM, key id inside the value).
  apiKeyEncrypted: text("api_key_encrypted"),
  clientSecretEncrypted: text("client_secret_encrypted"),
  /** How date-times are written (lib/upstream/formats.ts): the spec's own form, or plain RFC 3339 should the service want it. */
  dateTimeStyle: text("date_time_style", { enum: ["spec", "rfc3339"] })
    .notNull()
    .default("spec"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
});

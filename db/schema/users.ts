import { sql } from "drizzle-orm";
import { boolean, index, integer, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { locations } from "./locations";

export const userRole = pgEnum("user_role", ["admin", "support", "engineer", "owner"]);

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    role: userRole("role").notNull(),
    passwordHash: text("password_hash"),
    active: boolean("active").notNull().default(true),
    // Bumped on deactivation and password change: tokens carrying an older epoch stop working.
    sessionEpoch: integer("session_epoch").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    /** The `sub` of the company's OpenID Connect provider, for accounts that sign in through it. */
    oidcSubject: text("oidc_subject"),
    /** An OpenID Connect account no claim gave a role: inactive until an admin assigns one. */
    rolePending: boolean("role_pending").notNull().default(false),
  },
  (table) => [uniqueIndex("users_email_key").on(sql`lower(${table.email})`), uniqueIndex("users_oidc_subject_key").on(table.oidcSubject)],
);

export const userInvites = pgTable(
  "user_invites",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Only a SHA-256 of the link's token is kept; the link itself is shown once.
    tokenHash: text("token_hash").notNull().unique(),
    locationId: uuid("location_id").references(() => locations.id, { onDelete: "cascade" }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [
    index("user_invites_user_idx").on(table.userId),
    // One unused link per user at any time, whoever issues it concurrently: a new link replaces the old one.
    uniqueIndex("user_invites_one_unused")
      .on(table.userId)
      .where(sql`${table.usedAt} is null`),
  ],
);

/** One-time password reset links an admin sends; like invites, only a SHA-256 of the token is kept. */
export const passwordResetLinks = pgTable(
  "password_reset_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("password_reset_links_one_unused")
      .on(table.userId)
      .where(sql`${table.usedAt} is null`),
  ],
);

/** Session tokens revoked by signing out (their `jti`), kept until they would have expired anyway. */
export const revokedSessions = pgTable(
  "revoked_sessions",
  {
    jti: text("jti").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("revoked_sessions_expires_idx").on(table.expiresAt)],
);

export const locationMembers = pgTable(
  "location_members",
  {
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.locationId, table.userId] }), index("location_members_user_idx").on(table.userId)],
);

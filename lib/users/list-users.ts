import { asc, sql } from "drizzle-orm";
import { users } from "@/db/schema";
import { assertCan, type Actor } from "@/lib/auth/permissions";
import type { Role } from "@/lib/auth/roles";
import type { OperationContext } from "@/lib/operations/context";

export interface UserListItem {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  /** A single sign-on account no claim gave a role: no access until an admin assigns one. */
  rolePending: boolean;
  hasPassword: boolean;
  /** Signs in through the company's provider: no link ever gives the account a password. */
  singleSignOn: boolean;
  pendingInviteExpiresAt: Date | null;
  lastSignInAt: Date | null;
  createdAt: Date;
}

export async function listUsers(ctx: OperationContext<Actor>): Promise<UserListItem[]> {
  const { db } = ctx;
  assertCan(ctx.actor, "users.manage");
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      active: users.active,
      rolePending: users.rolePending,
      hasPassword: sql<boolean>`${users.passwordHash} is not null`,
      singleSignOn: sql<boolean>`${users.oidcSubject} is not null`,
      pendingInviteExpiresAt: sql<Date | null>`(select max(i.expires_at) from user_invites i where i.user_id = "users"."id" and i.used_at is null and i.expires_at > now())`,
      lastSignInAt: users.lastSignInAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .orderBy(asc(users.email));
  return rows.map((row) => ({ ...row, pendingInviteExpiresAt: row.pendingInviteExpiresAt ? new Date(row.pendingInviteExpiresAt) : null }));
}

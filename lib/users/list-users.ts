import { asc, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { userInvites, users } from "@/db/schema";

export interface UserListItem {
  id: string;
  email: string;
  name: string;
  role: "admin" | "support" | "engineer" | "owner";
  active: boolean;
  hasPassword: boolean;
  pendingInviteExpiresAt: Date | null;
  lastSignInAt: Date | null;
  createdAt: Date;
}

export async function listUsers(db: Database): Promise<UserListItem[]> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      active: users.active,
      hasPassword: sql<boolean>`${users.passwordHash} is not null`,
      pendingInviteExpiresAt: sql<Date | null>`(select max(${userInvites.expiresAt}) from ${userInvites} where ${userInvites.userId} = ${users.id} and ${userInvites.usedAt} is null and ${userInvites.expiresAt} > now())`,
      lastSignInAt: users.lastSignInAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .orderBy(asc(users.email));
  return rows.map((row) => ({ ...row, pendingInviteExpiresAt: row.pendingInviteExpiresAt ? new Date(row.pendingInviteExpiresAt) : null }));
}

import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { passwordResetLinks, userInvites, users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCan, can, rolesAllowed } from "@/lib/auth/permissions";
import { changedRole } from "@/lib/auth/roles";
import { DomainError } from "@/lib/errors/domain-error";
import type { OperationContext } from "@/lib/operations/context";
import type { UpdateUserInput } from "./user-inputs";

/**
 * Changes a user's role or active flag. Deactivation bumps the session epoch so
 * their signed-in sessions end at once, and revokes their unused invitation and
 * reset links; the last active admin (the last who may manage users) cannot be removed.
 */
export async function updateUser(ctx: OperationContext, { userId, ...input }: UpdateUserInput & { userId: string }) {
  const { db, actor } = ctx;
  assertCan(actor, "users.manage");
  return db.transaction(async (tx) => {
    // Serialises concurrent admin changes so the "last admin" check holds.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('users.admins'))`);
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw new DomainError("NOT_FOUND", "User not found.");
    // The users page offers neither: an admin's own role and access are changed by another admin.
    if (user.id === actor.id && ((input.role && changedRole(user.role, input.role)) || (input.active === false && user.active)))
      throw new DomainError("CONFLICT", "You cannot change your own role or deactivate yourself: another admin can.");
    const managesUsers = can(user, "users.manage");
    const losesAdmin =
      managesUsers && user.active && ((input.role && !can({ id: user.id, role: input.role }, "users.manage")) || input.active === false);
    if (losesAdmin) {
      const [others] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(users)
        .where(and(inArray(users.role, [...rolesAllowed("users.manage")]), eq(users.active, true), ne(users.id, userId)));
      if (!others?.count) throw new DomainError("CONFLICT", "This is the last active admin: make someone else admin first.");
    }
    const target = { type: "user", id: user.id, label: user.email };
    // A single sign-on account awaiting its role: assigning one gives it access.
    if (user.rolePending) {
      if (!input.role) throw new DomainError("CONFLICT", "Assign this account a role first.");
      await tx.update(users).set({ role: input.role, rolePending: false, active: true, updatedAt: new Date() }).where(eq(users.id, userId));
      await recordAuditEvent(tx, { actor, action: "user.role_changed", target, details: { from: null, to: input.role } });
      return;
    }
    const newRole = changedRole(user.role, input.role);
    if (newRole) {
      await tx.update(users).set({ role: newRole, updatedAt: new Date() }).where(eq(users.id, userId));
      await recordAuditEvent(tx, { actor, action: "user.role_changed", target, details: { from: user.role, to: newRole } });
    }
    if (input.active !== undefined && input.active !== user.active) {
      await tx
        .update(users)
        .set({ active: input.active, sessionEpoch: input.active ? user.sessionEpoch : user.sessionEpoch + 1, updatedAt: new Date() })
        .where(eq(users.id, userId));
      // Links sent before do not come back to life with a reactivation: whoever reactivates sends a new one.
      if (!input.active) {
        await tx.delete(userInvites).where(and(eq(userInvites.userId, userId), isNull(userInvites.usedAt)));
        await tx.delete(passwordResetLinks).where(and(eq(passwordResetLinks.userId, userId), isNull(passwordResetLinks.usedAt)));
      }
      await recordAuditEvent(tx, { actor, action: input.active ? "user.reactivated" : "user.deactivated", target });
    }
  });
}

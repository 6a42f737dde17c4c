import { and, eq, sql } from "drizzle-orm";
import { users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCan, type OperationActor, type UserActor } from "@/lib/auth/permissions";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { DomainError } from "@/lib/errors/domain-error";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import type { ChangePasswordInput } from "./user-inputs";

const notCurrent = () =>
  new DomainError("INVALID", "Your current password is not right.", [{ field: "currentPassword", reason: "is not your current password" }]);

/**
 * A signed-in person changes their own password, proving it with the current one. The session epoch is bumped: every
 * session of the account, this one too, stops working at its next request (the page signs in again with the new
 * password). An account without a password (single sign-on only) has none to change.
 */
export async function changeOwnPassword(
  ctx: OperationContext<OperationActor & UserActor>,
  input: Pick<ChangePasswordInput, "currentPassword" | "password">,
): Promise<{ email: string }> {
  const { db, actor } = ctx;
  assertCan(actor, "account.password");
  const [user] = await db.select().from(users).where(eq(users.id, actor.id)).limit(1);
  if (!user?.active) throw new DomainError("UNAUTHENTICATED", "Sign in to continue.");
  if (!user.passwordHash || user.oidcSubject)
    throw new DomainError("CONFLICT", "Your account signs in through your company's single sign-on: it has no password here.");
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) throw notCurrent();
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    // Only over the password just proved: a change or reset that landed meanwhile is not undone.
    const [updated] = await tx
      .update(users)
      .set({ passwordHash, sessionEpoch: sql`${users.sessionEpoch} + 1`, updatedAt: nowOf(ctx) })
      .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash!), eq(users.active, true)))
      .returning({ email: users.email });
    if (!updated) throw notCurrent();
    await recordAuditEvent(tx, { actor, action: "user.password_changed", target: { type: "user", id: user.id, label: user.email } });
    return { email: updated.email };
  });
}

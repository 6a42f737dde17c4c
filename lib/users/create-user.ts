import { users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCan } from "@/lib/auth/permissions";
import { hashPassword } from "@/lib/auth/passwords";
import { DomainError } from "@/lib/errors/domain-error";
import type { OperationContext } from "@/lib/operations/context";
import { invitePath, issueInvite } from "./invite-links";
import type { CreateUserInput } from "./user-inputs";

export interface CreatedUser {
  id: string;
  email: string;
  role: CreateUserInput["role"];
  /** Present when no password was given: the person sets their own through it. */
  invite?: { path: string; expiresAt: Date };
}

/**
 * Creates a dashboard user. Without a password (the dashboard's way), the result
 * carries a one-time invite link; with one (the CLI), the account is ready. The
 * database's unique email decides between simultaneous creations: the others get
 * a conflict, and nothing of theirs is written.
 */
export async function createUser(ctx: OperationContext, input: CreateUserInput & { password?: string }): Promise<CreatedUser> {
  const { db, actor } = ctx;
  assertCan(actor, "users.manage");
  const email = input.email.trim().toLowerCase();
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ email, name: input.name, role: input.role, passwordHash })
      .onConflictDoNothing()
      .returning({ id: users.id, email: users.email, role: users.role });
    if (!user) throw new DomainError("CONFLICT", "A user with this email exists already.", [{ field: "email", reason: "is already taken" }]);
    await recordAuditEvent(tx, {
      actor,
      action: "user.created",
      target: { type: "user", id: user.id, label: user.email },
      details: { role: user.role },
    });
    if (input.password) return user;
    const invite = await issueInvite(tx, { userId: user.id, createdBy: actor.id });
    await recordAuditEvent(tx, { actor, action: "user.invited", target: { type: "user", id: user.id, label: user.email } });
    return { ...user, invite: { path: invitePath(invite.token), expiresAt: invite.expiresAt } };
  });
}

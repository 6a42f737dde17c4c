import { eq } from "drizzle-orm";
import { users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCan } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import type { OperationContext } from "@/lib/operations/context";
import { invitePath, issueInvite, SINGLE_SIGN_ON_NO_PASSWORD } from "./invite-links";

/**
 * A fresh invite link for a user who has not set a password yet; their earlier
 * unused link stops working. A link never replaces a password someone has set.
 */
export async function reissueInvite(ctx: OperationContext, { userId }: { userId: string }) {
  const { db, actor } = ctx;
  assertCan(actor, "users.manage");
  return db.transaction(async (tx) => {
    // Locked so that an acceptance of the earlier link finishes first (and is seen) or waits for this one.
    const [user] = await tx
      .select({ id: users.id, email: users.email, active: users.active, passwordHash: users.passwordHash, oidcSubject: users.oidcSubject })
      .from(users)
      .where(eq(users.id, userId))
      .for("update")
      .limit(1);
    if (!user) throw new DomainError("NOT_FOUND", "User not found.");
    if (!user.active) throw new DomainError("CONFLICT", "Reactivate the user before inviting them.");
    if (user.oidcSubject) throw new DomainError("CONFLICT", SINGLE_SIGN_ON_NO_PASSWORD);
    if (user.passwordHash) throw new DomainError("CONFLICT", "This user has set a password already: an invite link cannot change it.");
    const invite = await issueInvite(tx, { userId, createdBy: actor.id });
    await recordAuditEvent(tx, { actor, action: "user.invited", target: { type: "user", id: user.id, label: user.email } });
    return { path: invitePath(invite.token), expiresAt: invite.expiresAt };
  });
}

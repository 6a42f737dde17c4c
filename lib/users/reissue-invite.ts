import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "@/db/client";
import { userInvites, users } from "@/db/schema";
import { recordAuditEvent, type AuditActor } from "@/lib/audit/record-audit-event";
import { DomainError } from "@/lib/errors/domain-error";
import { invitePath, issueInvite } from "./invite-links";

/** A fresh invite link for a user; earlier unused links stop working. */
export async function reissueInvite(db: Database, actor: AuditActor, userId: string) {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id, email: users.email, active: users.active }).from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw new DomainError("NOT_FOUND", "User not found.");
    if (!user.active) throw new DomainError("CONFLICT", "Reactivate the user before inviting them.");
    await tx.update(userInvites).set({ usedAt: new Date() }).where(and(eq(userInvites.userId, userId), isNull(userInvites.usedAt)));
    const invite = await issueInvite(tx, { userId, createdBy: actor.id });
    await recordAuditEvent(tx, { actor, action: "user.invited", target: { type: "user", id: user.id, label: user.email } });
    return { path: invitePath(invite.token), expiresAt: invite.expiresAt };
  });
}

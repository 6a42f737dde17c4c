import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { passwordResetLinks, users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCan } from "@/lib/auth/permissions";
import { hashPassword } from "@/lib/auth/passwords";
import { DomainError } from "@/lib/errors/domain-error";
import { nowOf, type OperationContext, type PublicOperationContext } from "@/lib/operations/context";
import { hashInviteToken, SINGLE_SIGN_ON_NO_PASSWORD } from "./invite-links";

/** Shorter than an invite's 72 hours: the link replaces a password that exists. */
export const PASSWORD_RESET_TTL_MINUTES = 60;

export function passwordResetPath(token: string): string {
  return `/reset-password/${token}`;
}

const unusable = () =>
  new DomainError("NOT_FOUND", "This reset link is not valid any more: it was used, replaced, or it expired. Ask for a new one.");

/**
 * An admin issues a one-time reset link for an active account (the invite model: only a SHA-256 of the token is
 * stored, the link is shown once to hand over). A new link replaces the account's unused one.
 */
export async function issuePasswordReset(
  ctx: OperationContext,
  { userId }: { userId: string },
): Promise<{ path: string; expiresAt: Date; email: string }> {
  const { db, actor } = ctx;
  assertCan(actor, "users.manage");
  const now = nowOf(ctx);
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MINUTES * 60 * 1000);
  return db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update").limit(1);
    if (!user) throw new DomainError("NOT_FOUND", "User not found.");
    if (!user.active) throw new DomainError("CONFLICT", "Reactivate the user before sending a reset link.");
    if (user.oidcSubject) throw new DomainError("CONFLICT", SINGLE_SIGN_ON_NO_PASSWORD);
    await tx
      .insert(passwordResetLinks)
      .values({ userId, tokenHash: hashInviteToken(token), createdBy: actor.id, createdAt: now, expiresAt })
      .onConflictDoUpdate({
        target: passwordResetLinks.userId,
        targetWhere: isNull(passwordResetLinks.usedAt),
        set: { tokenHash: sql`excluded.token_hash`, createdBy: sql`excluded.created_by`, createdAt: now, expiresAt },
      });
    await recordAuditEvent(tx, { actor, action: "user.password_reset_sent", target: { type: "user", id: user.id, label: user.email } });
    return { path: passwordResetPath(token), expiresAt, email: user.email };
  });
}

/** The account behind a reset link, if the link can still be used (the page shows whose password it sets). */
export async function findUsablePasswordReset(ctx: PublicOperationContext, { token }: { token: string }) {
  const [link] = await ctx.db
    .select({ email: users.email, expiresAt: passwordResetLinks.expiresAt })
    .from(passwordResetLinks)
    .innerJoin(users, eq(users.id, passwordResetLinks.userId))
    .where(
      and(
        eq(passwordResetLinks.tokenHash, hashInviteToken(token)),
        isNull(passwordResetLinks.usedAt),
        gt(passwordResetLinks.expiresAt, nowOf(ctx)),
        eq(users.active, true),
        isNull(users.oidcSubject),
      ),
    )
    .limit(1);
  return link ?? null;
}

/** Spends the link (once, even when sent twice at once) and sets the password; every session of the account ends. */
export async function resetPassword(
  ctx: PublicOperationContext,
  input: { token: string; password: string; clientAddress: string },
): Promise<{ email: string }> {
  const now = nowOf(ctx);
  const tokenHash = hashInviteToken(input.token);
  // A link that cannot be used costs no hash: anyone may post here, and a hash is the expensive part.
  if (!(await findUsablePasswordReset(ctx, input))) throw unusable();
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction(async (tx) => {
    const [link] = await tx
      .select({ userId: passwordResetLinks.userId })
      .from(passwordResetLinks)
      .where(eq(passwordResetLinks.tokenHash, tokenHash))
      .limit(1);
    if (!link) throw unusable();
    // The account first, then the link: the order sending a link (and linking single sign-on) takes, so they wait for
    // each other instead of deadlocking.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, link.userId)).for("update");
    const [spent] = await tx
      .update(passwordResetLinks)
      .set({ usedAt: now })
      .where(and(eq(passwordResetLinks.tokenHash, tokenHash), isNull(passwordResetLinks.usedAt), gt(passwordResetLinks.expiresAt, now)))
      .returning({ userId: passwordResetLinks.userId });
    if (!spent) throw unusable();
    const [user] = await tx
      .update(users)
      .set({ passwordHash, sessionEpoch: sql`${users.sessionEpoch} + 1`, updatedAt: now })
      .where(and(eq(users.id, spent.userId), eq(users.active, true), isNull(users.oidcSubject)))
      .returning({ id: users.id, email: users.email });
    if (!user) throw unusable();
    await recordAuditEvent(tx, {
      actor: { id: user.id, email: user.email, clientAddress: input.clientAddress },
      action: "user.password_reset",
      target: { type: "user", id: user.id, label: user.email },
    });
    return { email: user.email };
  });
}

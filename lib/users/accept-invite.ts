import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { locationMembers, userInvites, users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { hashPassword } from "@/lib/auth/passwords";
import { DomainError } from "@/lib/errors/domain-error";
import { nowOf, type PublicOperationContext } from "@/lib/operations/context";
import { hashInviteToken } from "./invite-links";

const unusable = () =>
  new DomainError("NOT_FOUND", "This invite link is not valid any more: it was used, replaced, or it expired. Ask for a new one.");

/** The invite behind a link, if it can still be used; `hasPassword`: the account has one already, which the link cannot change. */
export async function findUsableInvite(ctx: PublicOperationContext, { token }: { token: string }) {
  const { db } = ctx;
  const now = nowOf(ctx);
  const [invite] = await db
    .select({
      id: userInvites.id,
      userId: userInvites.userId,
      email: users.email,
      locationId: userInvites.locationId,
      expiresAt: userInvites.expiresAt,
      // The link sets no password: the account has one, or signs in through single sign-on.
      hasPassword: sql<boolean>`${users.passwordHash} is not null or ${users.oidcSubject} is not null`,
    })
    .from(userInvites)
    .innerJoin(users, eq(users.id, userInvites.userId))
    .where(and(eq(userInvites.tokenHash, hashInviteToken(token)), isNull(userInvites.usedAt), gt(userInvites.expiresAt, now), eq(users.active, true)))
    .limit(1);
  return invite ?? null;
}

export interface AcceptedInvite {
  userId: string;
  email: string;
  locationId: string | null;
  /** False when the account had a password already: the link only confirmed the membership; sign in as usual. */
  passwordSet: boolean;
}

/**
 * Spends the link and sets the invited person's password, atomically: a link
 * works once, even when submitted twice at the same moment. A link never
 * replaces a password the account has already: then it only adds the membership.
 */
export async function acceptInvite(
  ctx: PublicOperationContext,
  input: { token: string; password: string; clientAddress: string },
): Promise<AcceptedInvite> {
  const { db } = ctx;
  const now = nowOf(ctx);
  const tokenHash = hashInviteToken(input.token);
  // A link that cannot be used costs no hash: anyone may post here, and a hash is the expensive part.
  if (!(await findUsableInvite(ctx, input))) throw unusable();
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [link] = await tx.select({ userId: userInvites.userId }).from(userInvites).where(eq(userInvites.tokenHash, tokenHash)).limit(1);
    if (!link) throw unusable();
    // The user first, then the link: the order issuing a link takes too, so the two wait for each other instead of deadlocking.
    const [user] = await tx.select().from(users).where(eq(users.id, link.userId)).for("update").limit(1);
    if (!user?.active) throw unusable();
    const [spent] = await tx
      .update(userInvites)
      .set({ usedAt: now })
      .where(and(eq(userInvites.tokenHash, tokenHash), isNull(userInvites.usedAt), gt(userInvites.expiresAt, now)))
      .returning({ userId: userInvites.userId, locationId: userInvites.locationId });
    if (!spent) throw unusable();
    const passwordSet = user.passwordHash === null && user.oidcSubject === null;
    if (passwordSet) {
      await tx
        .update(users)
        .set({ passwordHash, sessionEpoch: user.sessionEpoch + 1, updatedAt: now })
        .where(eq(users.id, user.id));
    }
    if (spent.locationId) await tx.insert(locationMembers).values({ locationId: spent.locationId, userId: user.id }).onConflictDoNothing();
    await recordAuditEvent(tx, {
      actor: { id: user.id, email: user.email, clientAddress: input.clientAddress },
      action: "user.invite_accepted",
      target: { type: "user", id: user.id, label: user.email },
      details: passwordSet ? undefined : { passwordSet: false },
    });
    return { userId: user.id, email: user.email, locationId: spent.locationId, passwordSet };
  });
}

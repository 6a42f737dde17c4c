import { and, eq, isNull, sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locationMembers, passwordResetLinks, userInvites, users } from "@/db/schema";

/**
 * Links an existing account to a provider's subject, in the caller's transaction (which holds the account's row).
 * From then on the provider alone decides who signs in: a password the account had would let someone the provider
 * has shut out back in, so it is cleared, and the sessions it signed in end (the epoch is bumped; the returned row
 * carries the new one). Its unused reset link is deleted; its unused invite link too, the location an unexpired one was sent
 * for becoming a membership, as accepting it would have made it.
 */
export async function linkAccountToSingleSignOn(tx: DatabaseOrTransaction, input: { userId: string; subject: string; now: Date }) {
  const { userId, subject, now } = input;
  const [user] = await tx
    .update(users)
    .set({
      oidcSubject: subject,
      passwordHash: null,
      sessionEpoch: sql`${users.sessionEpoch} + case when ${users.passwordHash} is null then 0 else 1 end`,
      updatedAt: now,
    })
    .where(eq(users.id, userId))
    .returning();
  await tx.delete(passwordResetLinks).where(and(eq(passwordResetLinks.userId, userId), isNull(passwordResetLinks.usedAt)));
  const invites = await tx
    .delete(userInvites)
    .where(and(eq(userInvites.userId, userId), isNull(userInvites.usedAt)))
    .returning({ locationId: userInvites.locationId, expiresAt: userInvites.expiresAt });
  for (const { locationId, expiresAt } of invites) {
    if (locationId && expiresAt > now) await tx.insert(locationMembers).values({ locationId, userId }).onConflictDoNothing();
  }
  return user!;
}

import { eq, sql } from "drizzle-orm";
import type { PublicOperationContext } from "@/lib/operations/context";
import { users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { releaseRateLimitSlot, reserveRateLimitSlots, type RateLimitRule } from "@/lib/rate-limit/rate-limit";
import { verifyPassword } from "./passwords";
import type { Role } from "./roles";

export const signInLimits = {
  perAccount: { limit: 5, windowSeconds: 15 * 60 } satisfies RateLimitRule,
  perAddress: { limit: 20, windowSeconds: 15 * 60 } satisfies RateLimitRule,
};

export type SignInResult =
  | { ok: true; user: { id: string; email: string; name: string; role: Role; sessionEpoch: number } }
  | { ok: false; reason: "invalid" | "throttled"; retryAfterSeconds?: number };

/**
 * Checks an email and password. Each attempt first reserves a slot per account
 * and per client address in one atomic statement each; past either limit it is
 * refused before the password is even checked, however many arrive at once. A
 * successful sign-in gives its slots back, so the limits count failures (and
 * attempts still being checked), not people signing in.
 */
export async function signInWithPassword(
  ctx: PublicOperationContext,
  input: { email: string; password: string; clientAddress: string },
): Promise<SignInResult> {
  const { db } = ctx;
  const email = input.email.trim().toLowerCase();
  const actor = { id: null, email, clientAddress: input.clientAddress };

  const reservation = await reserveRateLimitSlots(db, [
    { key: `sign-in:account:${email}`, rule: signInLimits.perAccount },
    { key: `sign-in:address:${input.clientAddress}`, rule: signInLimits.perAddress },
  ]);
  if (!reservation.reserved) {
    const by = reservation.refusedKey.startsWith("sign-in:account:") ? "account" : "address";
    await recordAuditEvent(db, { actor, action: "auth.sign_in_throttled", details: { by } });
    return { ok: false, reason: "throttled", retryAfterSeconds: reservation.retryAfterSeconds };
  }

  const [user] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  // The provider alone signs in an account linked to single sign-on: a password it kept is checked like none at all.
  const singleSignOn = Boolean(user?.oidcSubject);
  const passwordOk = await verifyPassword(singleSignOn ? null : user?.passwordHash, input.password);
  if (!user || !passwordOk || !user.active) {
    await recordAuditEvent(db, {
      actor: { ...actor, id: user?.id ?? null },
      action: "auth.sign_in_failed",
      details: {
        reason: !user ? "unknown account" : singleSignOn ? "single sign-on account" : !passwordOk ? "wrong password" : "account deactivated",
      },
    });
    return { ok: false, reason: "invalid" };
  }

  await Promise.all(reservation.slots.map((slot) => releaseRateLimitSlot(db, slot)));
  await db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, user.id));
  await recordAuditEvent(db, { actor: { ...actor, id: user.id, email: user.email }, action: "auth.sign_in" });
  return { ok: true, user: { id: user.id, email: user.email, name: user.name, role: user.role, sessionEpoch: user.sessionEpoch } };
}

import { eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { hitRateLimit, readRateLimit, type RateLimitRule } from "@/lib/rate-limit/rate-limit";
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
 * Checks an email and password. Failed attempts are counted per account and per
 * client address; past either limit, attempts are refused before the password is
 * even checked, until the window ends.
 */
export async function signInWithPassword(
  db: Database,
  input: { email: string; password: string; clientAddress: string },
): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const accountKey = `sign-in:account:${email}`;
  const addressKey = `sign-in:address:${input.clientAddress}`;
  const actor = { id: null, email, clientAddress: input.clientAddress };

  const [account, address] = await Promise.all([
    readRateLimit(db, accountKey, signInLimits.perAccount),
    readRateLimit(db, addressKey, signInLimits.perAddress),
  ]);
  if (account.limited || address.limited) {
    await recordAuditEvent(db, { actor, action: "auth.sign_in_throttled", details: { by: account.limited ? "account" : "address" } });
    return { ok: false, reason: "throttled", retryAfterSeconds: Math.max(account.retryAfterSeconds, address.retryAfterSeconds) };
  }

  const [user] = await db.select().from(users).where(eq(sql`lower(${users.email})`, email)).limit(1);
  const passwordOk = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !passwordOk || !user.active) {
    await hitRateLimit(db, accountKey, signInLimits.perAccount);
    await hitRateLimit(db, addressKey, signInLimits.perAddress);
    await recordAuditEvent(db, {
      actor: { ...actor, id: user?.id ?? null },
      action: "auth.sign_in_failed",
      details: { reason: !user ? "unknown account" : !passwordOk ? "wrong password" : "account deactivated" },
    });
    return { ok: false, reason: "invalid" };
  }

  await db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, user.id));
  await recordAuditEvent(db, { actor: { ...actor, id: user.id, email: user.email }, action: "auth.sign_in" });
  return { ok: true, user: { id: user.id, email: user.email, name: user.name, role: user.role, sessionEpoch: user.sessionEpoch } };
}

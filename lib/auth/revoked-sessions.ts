import { eq, lt } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { revokedSessions } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/**
 * A signed-out session's id stays revoked for as long as any copy of its token
 * could still be valid: a token is re-issued with a fresh expiry on each use, so
 * that is the session lifetime from now (plus the clock tolerance of the token check).
 */
export async function revokeSession(
  db: DatabaseOrTransaction,
  token: { sessionId: string; userId: string | null; email: string | null },
  sessionMaxAgeSeconds: number,
  now = new Date(),
) {
  const expiresAt = new Date(now.getTime() + (sessionMaxAgeSeconds + 60) * 1000);
  await db.insert(revokedSessions).values({ jti: token.sessionId, expiresAt }).onConflictDoNothing();
  await recordAuditEvent(db, { actor: { id: token.userId, email: token.email }, action: "auth.sign_out" });
}

export async function isSessionRevoked(db: DatabaseOrTransaction, sessionId: string): Promise<boolean> {
  const [row] = await db.select({ jti: revokedSessions.jti }).from(revokedSessions).where(eq(revokedSessions.jti, sessionId)).limit(1);
  return Boolean(row);
}

/** Rows whose tokens have all expired prove nothing any more. */
export async function pruneRevokedSessions(db: DatabaseOrTransaction, now = new Date()): Promise<number> {
  const deleted = await db.delete(revokedSessions).where(lt(revokedSessions.expiresAt, now)).returning({ jti: revokedSessions.jti });
  return deleted.length;
}

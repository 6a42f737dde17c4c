import { eq } from "drizzle-orm";
import type { JWT } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { auditLog, revokedSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { authOptions, SESSION_MAX_AGE_SECONDS } from "./auth-options";
import { isSessionRevoked, pruneRevokedSessions, revokeSession } from "./revoked-sessions";

const { db } = await useTestDatabase();
const user = { id: "00000000-0000-4000-8000-000000000001", email: "someone@example.test", name: "", sessionEpoch: 0 };

async function jwt(token: JWT, signingIn = false): Promise<JWT> {
  const callback = authOptions.callbacks!.jwt!;
  return (await callback({ token, user: signingIn ? user : (undefined as never), account: null })) as JWT;
}

describe("session revocation", () => {
  it("signing out revokes the session: its token, and every copy of it, stops resolving", async () => {
    const signedIn = await jwt({ sub: user.id, email: user.email }, true);
    expect(signedIn.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await jwt(signedIn)).toMatchObject({ sub: user.id, sessionId: signedIn.sessionId });

    await authOptions.events!.signOut!({ token: signedIn, session: undefined as never });
    expect(await isSessionRevoked(db, signedIn.sessionId!)).toBe(true);
    expect(await jwt(signedIn)).toEqual({});
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "auth.sign_out"));
    expect(entry).toMatchObject({ actorUserId: user.id, actorEmail: user.email });
  });

  it("refuses a token without a session id, which could not be revoked", async () => {
    expect(await jwt({ sub: user.id, email: user.email })).toEqual({});
  });

  it("keeps a revocation as long as a copy of the token could live, then prunes it", async () => {
    const now = new Date("2026-03-01T12:00:00Z");
    await revokeSession(db, { sessionId: "kept", userId: null, email: null }, SESSION_MAX_AGE_SECONDS, now);
    const [row] = await db.select().from(revokedSessions).where(eq(revokedSessions.jti, "kept"));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000);
    expect(await pruneRevokedSessions(db, new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000))).toBe(0);
    expect(await pruneRevokedSessions(db, new Date(now.getTime() + (SESSION_MAX_AGE_SECONDS + 120) * 1000))).toBe(1);
    expect(await isSessionRevoked(db, "kept")).toBe(false);
  });
});

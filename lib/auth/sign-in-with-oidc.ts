import { eq, sql } from "drizzle-orm";
import { users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { PublicOperationContext } from "@/lib/operations/context";
import { nowOf } from "@/lib/operations/context";
import type { Role } from "./roles";

export interface OidcIdentity {
  /** The provider's `sub`: the account's stable key. */
  subject: string;
  email: string;
  /** The provider's `email_verified`: an existing dashboard account is linked by email only when it is true. */
  emailVerified: boolean;
  name: string;
  /** From the ID token's claims (./oidc-role.ts); null = an admin assigns one. */
  role: Role | null;
  /** next-auth's sign-in callback does not see the request: null there. */
  clientAddress: string | null;
}

export type OidcSignInResult =
  | { ok: true; user: { id: string; email: string; name: string; sessionEpoch: number } }
  | { ok: false; reason: "awaiting_role" | "deactivated" | "unverified_email" };

/**
 * Who a single sign-on is: the account with this subject, else the account with this (verified) email, which is
 * linked to the subject, else a new account. A new account takes the role its claims map to; without one it is
 * created inactive and "awaiting a role" (no access until an admin assigns one on the users page). The role of an
 * existing account is the dashboard's, whatever the claims say later.
 */
export async function signInWithOidc(ctx: PublicOperationContext, identity: OidcIdentity): Promise<OidcSignInResult> {
  const now = nowOf(ctx);
  const email = identity.email.trim().toLowerCase();
  const actor = { id: null, email, clientAddress: identity.clientAddress };
  return ctx.db.transaction(async (tx) => {
    let [user] = await tx.select().from(users).where(eq(users.oidcSubject, identity.subject)).for("update").limit(1);
    if (!user) {
      [user] = await tx
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, email))
        .for("update")
        .limit(1);
      if (user && (!identity.emailVerified || user.oidcSubject !== null)) {
        await recordAuditEvent(tx, {
          actor: { ...actor, id: user.id },
          action: "auth.sign_in_failed",
          details: { reason: "single sign-on email not linkable" },
        });
        return { ok: false, reason: "unverified_email" };
      }
      if (user) {
        [user] = await tx.update(users).set({ oidcSubject: identity.subject, updatedAt: now }).where(eq(users.id, user.id)).returning();
      }
    }
    if (!user) {
      [user] = await tx
        .insert(users)
        .values({
          email,
          name: identity.name,
          // A placeholder while the role is pending: the account is inactive, so the role grants nothing.
          role: identity.role ?? "owner",
          rolePending: identity.role === null,
          active: identity.role !== null,
          oidcSubject: identity.subject,
        })
        .returning();
      await recordAuditEvent(tx, {
        actor: { ...actor, id: user!.id },
        action: "user.oidc_created",
        target: { type: "user", id: user!.id, label: email },
        details: { role: identity.role, awaitingRole: identity.role === null },
      });
    }
    if (user!.rolePending) return { ok: false, reason: "awaiting_role" };
    if (!user!.active) {
      await recordAuditEvent(tx, { actor: { ...actor, id: user!.id }, action: "auth.sign_in_failed", details: { reason: "account deactivated" } });
      return { ok: false, reason: "deactivated" };
    }
    await tx.update(users).set({ lastSignInAt: now }).where(eq(users.id, user!.id));
    await recordAuditEvent(tx, { actor: { ...actor, id: user!.id, email: user!.email }, action: "auth.sign_in", details: { method: "oidc" } });
    return { ok: true, user: { id: user!.id, email: user!.email, name: user!.name, sessionEpoch: user!.sessionEpoch } };
  });
}

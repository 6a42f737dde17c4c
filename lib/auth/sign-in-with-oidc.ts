import { eq, sql } from "drizzle-orm";
import { users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { PublicOperationContext } from "@/lib/operations/context";
import { nowOf } from "@/lib/operations/context";
import { linkAccountToSingleSignOn } from "@/lib/users/link-single-sign-on";
import { Email, USER_NAME_MAX_LENGTH } from "@/lib/users/user-inputs";
import { violatedUniqueIndex } from "@/db/unique-violation";
import { escapeUnsafeCharacters, findUnstorableCharacter } from "@/lib/validation/safe-text";
import type { Role } from "./roles";

const USER_KEYS = ["users_email_key", "users_oidc_subject_key"];

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
  // The provider's claims are input like any other: an email that is none (or a subject no text column holds) is refused.
  const parsedEmail = Email.safeParse(identity.email);
  if (!parsedEmail.success || findUnstorableCharacter(identity.subject)) return { ok: false, reason: "unverified_email" };
  const email = parsedEmail.data;
  const name = typeof identity.name === "string" ? escapeUnsafeCharacters(identity.name.trim()).slice(0, USER_NAME_MAX_LENGTH) : "";
  // Two first sign-ins of one person at once (two tabs) both find no account; the second insert then hits the unique
  // index, and its second try finds the account the first made.
  for (let attempt = 1; ; attempt++) {
    try {
      return await signInOnce(ctx, { ...identity, email, name });
    } catch (error) {
      if (attempt >= 2 || !USER_KEYS.includes(violatedUniqueIndex(error) ?? "")) throw error;
    }
  }
}

async function signInOnce(ctx: PublicOperationContext, identity: OidcIdentity): Promise<OidcSignInResult> {
  const now = nowOf(ctx);
  const { email } = identity;
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
      // Already linked to this subject: a first sign-in racing this one (another tab) committed between the two look-ups.
      const toLink = user && user.oidcSubject !== identity.subject ? user : undefined;
      if (toLink && (!identity.emailVerified || toLink.oidcSubject !== null)) {
        await recordAuditEvent(tx, {
          actor: { ...actor, id: toLink.id },
          action: "auth.sign_in_failed",
          details: { reason: "single sign-on email not linkable" },
        });
        return { ok: false, reason: "unverified_email" };
      }
      if (toLink) {
        user = await linkAccountToSingleSignOn(tx, { userId: toLink.id, subject: identity.subject, now });
        await recordAuditEvent(tx, {
          actor: { ...actor, id: toLink.id },
          action: "user.oidc_linked",
          target: { type: "user", id: toLink.id, label: toLink.email },
          details: { passwordCleared: toLink.passwordHash !== null },
        });
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
    // Still waiting, and the claims now map to a role (OIDC_ROLE_MAP set or extended since): the map assigns it.
    if (user!.rolePending && identity.role !== null) {
      [user] = await tx
        .update(users)
        .set({ role: identity.role, rolePending: false, active: true, updatedAt: now })
        .where(eq(users.id, user!.id))
        .returning();
      await recordAuditEvent(tx, {
        actor: { ...actor, id: user!.id },
        action: "user.role_changed",
        target: { type: "user", id: user!.id, label: user!.email },
        details: { from: null, to: identity.role, by: "OIDC_ROLE_MAP" },
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

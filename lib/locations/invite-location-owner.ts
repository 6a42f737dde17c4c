import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { locationMembers, userInvites, users } from "@/db/schema";
import { recordAuditEvent, type AuditActor } from "@/lib/audit/record-audit-event";
import { DomainError } from "@/lib/errors/domain-error";
import { invitePath, issueInvite } from "@/lib/users/invite-links";
import { getLocationRow } from "./get-location";
import type { OwnerInvitationInput } from "./location-inputs";

export type OwnerInvitation =
  /** A one-time link: the owner sets a password, becomes a member and lands on the connect page. */
  | { kind: "invite"; email: string; path: string; expiresAt: Date }
  /** The owner already has a dashboard password: they are a member now and see the location at their next visit. */
  | { kind: "member_added"; email: string };

/**
 * Invites the owner of a location. A new email gets an owner account and a link;
 * an owner who has not set a password yet gets a fresh link (older ones stop working);
 * an owner with a password simply becomes a member.
 */
export async function inviteLocationOwner(db: Database, actor: AuditActor, locationId: string, input: OwnerInvitationInput): Promise<OwnerInvitation> {
  const email = input.email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const location = await getLocationRow(tx, locationId);
    const target = { type: "location", id: location.id, label: location.name };
    const [existing] = await tx.select().from(users).where(eq(sql`lower(${users.email})`, email)).limit(1);
    if (existing && existing.role !== "owner") {
      throw new DomainError("CONFLICT", "This email belongs to a staff account, which sees every location already.", [
        { field: "email", reason: "belongs to a staff account" },
      ]);
    }
    if (existing && !existing.active) {
      throw new DomainError("CONFLICT", "This owner's account is deactivated. An admin reactivates it first.", [{ field: "email", reason: "is deactivated" }]);
    }
    if (existing?.passwordHash) {
      await tx.insert(locationMembers).values({ locationId: location.id, userId: existing.id }).onConflictDoNothing();
      await recordAuditEvent(tx, { actor, action: "location.owner_added", target, details: { email: existing.email } });
      return { kind: "member_added", email: existing.email };
    }
    let owner = existing;
    if (!owner) {
      [owner] = await tx.insert(users).values({ email, name: input.name, role: "owner" }).returning();
      if (!owner) throw new Error("insert returned no row");
      await recordAuditEvent(tx, { actor, action: "user.created", target: { type: "user", id: owner.id, label: owner.email }, details: { role: "owner" } });
    }
    await tx.update(userInvites).set({ usedAt: new Date() }).where(and(eq(userInvites.userId, owner.id), isNull(userInvites.usedAt)));
    const invite = await issueInvite(tx, { userId: owner.id, createdBy: actor.id, locationId: location.id });
    await recordAuditEvent(tx, { actor, action: "location.owner_invited", target, details: { email: owner.email, expiresAt: invite.expiresAt.toISOString() } });
    return { kind: "invite", email: owner.email, path: invitePath(invite.token), expiresAt: invite.expiresAt };
  });
}

import { and, eq, isNull, sql } from "drizzle-orm";
import { locationMembers, userInvites, users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { joinsLocationsAsMember } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import type { OperationContext } from "@/lib/operations/context";
import { invitePath, issueInvite } from "@/lib/users/invite-links";
import { getLocationRow } from "./get-location";
import type { OwnerInvitationInput } from "./location-inputs";
import { assertNotArchived } from "./location-lifecycle";

export type OwnerInvitation =
  /** A one-time link: the owner sets a password, becomes a member and lands on the connect page. */
  | { kind: "invite"; email: string; path: string; expiresAt: Date }
  /** The owner already has a dashboard password: they are a member now and see the location at their next visit. */
  | { kind: "member_added"; email: string };

/**
 * Invites the owner of a location. A new email gets an owner account and a link;
 * an owner who has not set a password yet gets a fresh link (older ones stop working; the location an older one
 * was for stays theirs, as a membership);
 * an owner with a password simply becomes a member. Simultaneous invitations of one
 * email queue on the owner's row; of those that would create the account, one does
 * and the others get a conflict.
 */
export async function inviteLocationOwner(ctx: OperationContext, input: OwnerInvitationInput & { locationId: string }): Promise<OwnerInvitation> {
  const { db, actor } = ctx;
  const { locationId } = input;
  await assertCanAtLocation(db, actor, "location.owners.invite", locationId);
  const email = input.email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const location = await getLocationRow(tx, locationId);
    assertNotArchived(location);
    const target = { type: "location", id: location.id, label: location.name };
    // Locked, so that an acceptance of the owner's link finishes first (and its password is seen) or waits for this.
    const [existing] = await tx
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, email))
      .for("update")
      .limit(1);
    if (existing && !joinsLocationsAsMember(existing.role)) {
      throw new DomainError("CONFLICT", "This email belongs to a staff account, which sees every location already.", [
        { field: "email", reason: "belongs to a staff account" },
      ]);
    }
    if (existing && !existing.active) {
      throw new DomainError("CONFLICT", "This owner's account is deactivated. An admin reactivates it first.", [
        { field: "email", reason: "is deactivated" },
      ]);
    }
    // An account that signs in already (a password, or single sign-on) needs no link: it is made a member.
    if (existing?.passwordHash || existing?.oidcSubject) {
      await tx.insert(locationMembers).values({ locationId: location.id, userId: existing.id }).onConflictDoNothing();
      await recordAuditEvent(tx, { actor, action: "location.owner_added", target, details: { email: existing.email } });
      return { kind: "member_added", email: existing.email };
    }
    let owner = existing;
    if (!owner) {
      [owner] = await tx.insert(users).values({ email, name: input.name, role: "owner" }).onConflictDoNothing().returning();
      if (!owner) {
        throw new DomainError(
          "CONFLICT",
          "An account for this email was created by another request at this very moment. Invite again to get a fresh link.",
          [{ field: "email", reason: "was taken at the same moment" }],
        );
      }
      await recordAuditEvent(tx, {
        actor,
        action: "user.created",
        target: { type: "user", id: owner.id, label: owner.email },
        details: { role: "owner" },
      });
    }
    // The owner's unused link this one replaces may be for another location: they keep that one as a member.
    const [replaced] = await tx
      .select({ locationId: userInvites.locationId })
      .from(userInvites)
      .where(and(eq(userInvites.userId, owner.id), isNull(userInvites.usedAt)));
    if (replaced?.locationId && replaced.locationId !== location.id)
      await tx.insert(locationMembers).values({ locationId: replaced.locationId, userId: owner.id }).onConflictDoNothing();
    const invite = await issueInvite(tx, { userId: owner.id, createdBy: actor.id, locationId: location.id });
    await recordAuditEvent(tx, {
      actor,
      action: "location.owner_invited",
      target,
      details: { email: owner.email, expiresAt: invite.expiresAt.toISOString() },
    });
    return { kind: "invite", email: owner.email, path: invitePath(invite.token), expiresAt: invite.expiresAt };
  });
}

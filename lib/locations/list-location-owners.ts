import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { locationMembers, userInvites, users } from "@/db/schema";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import type { Actor } from "@/lib/auth/permissions";
import { nowOf, type OperationContext } from "@/lib/operations/context";

export interface LocationOwner {
  email: string;
  name: string;
  /** Invited and not yet signed up: the link is still out. */
  pendingInvite: boolean;
  active: boolean;
}

/** The owners who are members of a location, and those invited for it whose link is still usable. */
export async function listLocationOwners(ctx: OperationContext<Actor>, { locationId }: { locationId: string }): Promise<LocationOwner[]> {
  const { db } = ctx;
  const now = nowOf(ctx);
  await assertCanAtLocation(db, ctx.actor, "location.owners.view", locationId);
  const members = await db
    .select({ email: users.email, name: users.name, active: users.active })
    .from(locationMembers)
    .innerJoin(users, eq(users.id, locationMembers.userId))
    .where(eq(locationMembers.locationId, locationId))
    .orderBy(asc(sql`lower(${users.email})`));
  const invited = await db
    .selectDistinct({ email: users.email, name: users.name, active: users.active })
    .from(userInvites)
    .innerJoin(users, eq(users.id, userInvites.userId))
    .where(and(eq(userInvites.locationId, locationId), isNull(userInvites.usedAt), gt(userInvites.expiresAt, now)));
  const memberEmails = new Set(members.map((member) => member.email));
  return [
    ...members.map((member) => ({ ...member, pendingInvite: false })),
    ...invited.filter((invite) => !memberEmails.has(invite.email)).map((invite) => ({ ...invite, pendingInvite: true })),
  ];
}

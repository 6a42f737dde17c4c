import { eq, sql, type SQL } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locationMembers } from "@/db/schema";
import {
  assertCan,
  locationScopeOf,
  membershipApplies,
  type AssertOptions,
  type Actor,
  type LocationAction,
  type LocationMembers,
} from "./permissions";

/** A location's members (its owners' user ids); none for a location that does not exist. */
export async function loadLocationMembers(db: DatabaseOrTransaction, locationId: string): Promise<LocationMembers> {
  const rows = await db.select({ userId: locationMembers.userId }).from(locationMembers).where(eq(locationMembers.locationId, locationId));
  return { id: locationId, memberIds: rows.map((row) => row.userId) };
}

/**
 * assertCan for an action on the location with this id: FORBIDDEN for a role that may not (before any query),
 * NOT_FOUND when the membership rule hides the location. Only the actors the rule applies to cost a query.
 * Whether the location exists is the operation's business: a staff caller reaches it either way.
 */
export async function assertCanAtLocation(
  db: DatabaseOrTransaction,
  actor: Actor,
  action: LocationAction,
  locationId: string,
  options?: AssertOptions,
): Promise<void> {
  assertCan(actor, action);
  if (!membershipApplies(actor, action)) return;
  assertCan(actor, action, await loadLocationMembers(db, locationId), options);
}

/**
 * A condition on a location id column for queries over many locations: the locations `actor` may take `action`
 * on (every one, or the ones they are a member of). Throws FORBIDDEN when the role may not at all.
 */
export function visibleLocationCondition(actor: Actor, action: LocationAction, locationId: SQL): SQL {
  const scope = locationScopeOf(actor, action);
  if (scope === "all") return sql`true`;
  return sql`exists (select 1 from ${locationMembers} m where m.location_id = ${locationId} and m.user_id = ${scope.memberId})`;
}

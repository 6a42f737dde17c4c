import { eq } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locations } from "@/db/schema";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import type { Actor, LocationAction } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import type { OperationContext } from "@/lib/operations/context";

export type LocationRow = typeof locations.$inferSelect;

/** A location's public view: everything but the sealed token, which never leaves lib/. */
export type LocationView = Omit<LocationRow, "locationTokenEncrypted"> & { connected: boolean };

export function toLocationView(row: LocationRow): LocationView {
  const { locationTokenEncrypted, ...rest } = row;
  return { ...rest, connected: Boolean(locationTokenEncrypted) };
}

/** Only loads: operations call it after their own permission check (lib/auth/permissions). */
export async function getLocationRow(db: DatabaseOrTransaction, id: string): Promise<LocationRow> {
  const [row] = await db.select().from(locations).where(eq(locations.id, id)).limit(1);
  if (!row) throw new DomainError("NOT_FOUND", "Location not found.");
  return row;
}

/**
 * The location as `actor` may see it for `action` (default "location.view"): FORBIDDEN for a role that may not,
 * NOT_FOUND for an unknown location and for one the membership rule hides (the same answer).
 */
export async function getLocationView(
  ctx: OperationContext<Actor>,
  { locationId, action = "location.view" }: { locationId: string; action?: LocationAction },
): Promise<LocationView> {
  await assertCanAtLocation(ctx.db, ctx.actor, action, locationId);
  return toLocationView(await getLocationRow(ctx.db, locationId));
}

import { eq } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locations } from "@/db/schema";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { can, type Actor, type LocationAction } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import type { OperationContext } from "@/lib/operations/context";

export type LocationRow = typeof locations.$inferSelect;

/** A location's public view: everything but the sealed token, which never leaves lib/. */
export type LocationView = Omit<LocationRow, "locationTokenEncrypted"> & { connected: boolean };

export function toLocationView(row: LocationRow): LocationView {
  const { locationTokenEncrypted, ...rest } = row;
  return { ...rest, connected: Boolean(locationTokenEncrypted) };
}

/**
 * A location's operator details ("location.details.view": the environment, upstream location, country and source it
 * syncs, how its token and full resyncs came about, and who paused its schedule and why): what a business owner is not
 * shown. The time zone and when the schedule was paused stay: the times an owner reads (the last sync, the next one)
 * are the location's.
 */
const operatorDetails = [
  "environment",
  "upstreamLocationId",
  "country",
  "sourceKey",
  "fullSyncReason",
  "locationTokenOrigin",
  "connectedByUserId",
  "schedulePausedByEmail",
  "schedulePauseReason",
] as const;

/** A location as a business owner sees it: its connection, schedule and state, no operator details. */
export type OwnerLocationView = Omit<LocationView, (typeof operatorDetails)[number]>;

export function ownerLocationViewOf(view: LocationView): OwnerLocationView {
  const shown: Partial<LocationView> = { ...view };
  for (const field of operatorDetails) delete shown[field];
  return shown as OwnerLocationView;
}

/** The location as an operation answers `actor`: the whole view for staff, the owner's view for everyone else. */
export function locationShownTo(actor: Actor, view: LocationView): LocationView | OwnerLocationView {
  return can(actor, "location.details.view") ? view : ownerLocationViewOf(view);
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
/** GET /api/locations/[id]: the location as `actor` may see it (locationShownTo). */
export async function readLocation(ctx: OperationContext<Actor>, { locationId }: { locationId: string }): Promise<LocationView | OwnerLocationView> {
  return locationShownTo(ctx.actor, await getLocationView(ctx, { locationId }));
}

export async function getLocationView(
  ctx: OperationContext<Actor>,
  { locationId, action = "location.view" }: { locationId: string; action?: LocationAction },
): Promise<LocationView> {
  await assertCanAtLocation(ctx.db, ctx.actor, action, locationId);
  return toLocationView(await getLocationRow(ctx.db, locationId));
}

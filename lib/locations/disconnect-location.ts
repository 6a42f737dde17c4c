import { eq } from "drizzle-orm";
import { locations } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import { getLocationRow, locationShownTo, toLocationView, type LocationView, type OwnerLocationView } from "./get-location";

/** The columns a location without a token has: the token, who connected it and its checks are gone. */
export function disconnectedColumns(now: Date) {
  return {
    locationTokenEncrypted: null,
    connectedAt: null,
    connectedByUserId: null,
    connectedByEmail: null,
    upstreamAccountEmail: null,
    lastCheckedAt: null,
    lastCheckOk: null,
    attentionReason: null,
    attentionSince: null,
    updatedAt: now,
  };
}

/** Deletes the Location Access Token and who connected it. Disconnecting twice changes nothing the second time. */
export async function disconnectLocation(ctx: OperationContext, { locationId }: { locationId: string }): Promise<LocationView | OwnerLocationView> {
  const { db, actor } = ctx;
  const now = nowOf(ctx);
  await assertCanAtLocation(db, actor, "location.connect", locationId);
  return db.transaction(async (tx) => {
    const location = await getLocationRow(tx, locationId);
    if (!location.locationTokenEncrypted) return locationShownTo(ctx.actor, toLocationView(location));
    const [row] = await tx.update(locations).set(disconnectedColumns(now)).where(eq(locations.id, location.id)).returning();
    await recordAuditEvent(tx, {
      actor,
      action: "location.disconnected",
      target: { type: "location", id: location.id, label: location.name },
      details: { upstreamAccountEmail: location.upstreamAccountEmail, connectedAt: location.connectedAt?.toISOString() ?? null },
    });
    return locationShownTo(ctx.actor, toLocationView(row!));
  });
}

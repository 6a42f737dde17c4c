import { eq } from "drizzle-orm";
import { locations } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import { disconnectedColumns } from "./disconnect-location";
import { toLocationView, type LocationView } from "./get-location";
import { connectionAttentionCleared } from "./connection-attention";
import { assertNoOpenSession, assertUpstreamSessionClosed, lockLocationRow } from "./location-lifecycle";

/**
 * Archives a location: its token is deleted (disconnected), the schedule skips it (no token), its history stays and
 * reads as before, and the default list hides it. Refused while a session is queued or running, or left the upstream
 * session open. Twice is once.
 */
export async function archiveLocation(ctx: OperationContext, { locationId }: { locationId: string }): Promise<LocationView> {
  const { db, actor } = ctx;
  const now = nowOf(ctx);
  await assertCanAtLocation(db, actor, "location.archive", locationId);
  return db.transaction(async (tx) => {
    const row = await lockLocationRow(tx, locationId);
    if (row.archivedAt) return toLocationView(row);
    await assertNoOpenSession(tx, locationId, "archive it");
    // Archiving deletes the token that a resume or Close upstream session needs.
    await assertUpstreamSessionClosed(tx, row, "archive it");
    // A sync session's attention stays, as a disconnect keeps it.
    const [archived] = await tx
      .update(locations)
      .set({ ...disconnectedColumns(now), ...connectionAttentionCleared, archivedAt: now, archivedByEmail: actor.email })
      .where(eq(locations.id, locationId))
      .returning();
    await recordAuditEvent(tx, {
      actor,
      action: "location.archived",
      target: { type: "location", id: row.id, label: row.name },
      details: { wasConnected: row.locationTokenEncrypted !== null, upstreamAccountEmail: row.upstreamAccountEmail },
    });
    return toLocationView(archived!);
  });
}

/** Brings an archived location back to the lists, disconnected: its owner connects it again before it syncs. */
export async function restoreLocation(ctx: OperationContext, { locationId }: { locationId: string }): Promise<LocationView> {
  const { db, actor } = ctx;
  await assertCanAtLocation(db, actor, "location.archive", locationId);
  return db.transaction(async (tx) => {
    const row = await lockLocationRow(tx, locationId);
    if (!row.archivedAt) return toLocationView(row);
    const [restored] = await tx
      .update(locations)
      .set({ archivedAt: null, archivedByEmail: null, updatedAt: nowOf(ctx) })
      .where(eq(locations.id, locationId))
      .returning();
    await recordAuditEvent(tx, {
      actor,
      action: "location.restored",
      target: { type: "location", id: row.id, label: row.name },
      details: { archivedAt: row.archivedAt.toISOString(), archivedByEmail: row.archivedByEmail },
    });
    return toLocationView(restored!);
  });
}

import { and, count, eq, isNull } from "drizzle-orm";
import { locations, syncSessions, userInvites } from "@/db/schema";
import { countAccepted } from "@/lib/sync/synced-records/lookups";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { DomainError } from "@/lib/errors/domain-error";
import type { OperationContext } from "@/lib/operations/context";
import type { DeleteLocationInput } from "./location-inputs";
import { assertNoOpenSession, assertUpstreamSessionClosed, lockLocationRow } from "./location-lifecycle";

export const TYPE_NAME_TO_DELETE = "Type the location's name exactly to delete it.";

/**
 * Deletes an archived location for good: the row and, through its foreign keys' cascades and its delete triggers, its sessions (steps,
 * attempts), synced records, preview, members and alert state; its token lived in the row. Only the
 * audit log keeps it (an entry naming what went). The person types the location's name as the confirmation.
 */
export async function deleteLocation(
  ctx: OperationContext,
  { locationId, confirmName }: DeleteLocationInput & { locationId: string },
): Promise<{ deleted: { id: string; name: string; sessions: number; syncedRecords: number } }> {
  const { db, actor } = ctx;
  await assertCanAtLocation(db, actor, "location.delete", locationId);
  return db.transaction(async (tx) => {
    const row = await lockLocationRow(tx, locationId);
    if (!row.archivedAt) throw new DomainError("CONFLICT", "Archive the location before deleting it.");
    if (confirmName.trim() !== row.name)
      throw new DomainError("INVALID", TYPE_NAME_TO_DELETE, [{ field: "confirmName", reason: "does not match the location's name" }]);
    await assertNoOpenSession(tx, locationId, "delete it");
    // Nobody could close it once the location is gone: its upstream location would stay "sync in progress" for good.
    await assertUpstreamSessionClosed(tx, row, "delete it");
    const [sessions] = await tx.select({ n: count() }).from(syncSessions).where(eq(syncSessions.locationId, locationId));
    const records = await countAccepted(tx, locationId);
    // An owner's unused link names the location it was sent for; it also sets their password for their other
    // locations, so it outlives this one (the foreign key's cascade would delete it).
    await tx
      .update(userInvites)
      .set({ locationId: null })
      .where(and(eq(userInvites.locationId, locationId), isNull(userInvites.usedAt)));
    await tx.delete(locations).where(eq(locations.id, locationId));
    const deleted = { id: row.id, name: row.name, sessions: sessions?.n ?? 0, syncedRecords: records };
    await recordAuditEvent(tx, {
      actor,
      action: "location.deleted",
      target: { type: "location", id: row.id, label: row.name },
      details: {
        environment: row.environment,
        upstreamLocationId: row.upstreamLocationId,
        sessions: deleted.sessions,
        syncedRecords: deleted.syncedRecords,
      },
    });
    return { deleted };
  });
}

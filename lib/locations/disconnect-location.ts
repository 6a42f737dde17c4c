import { and, eq, isNull, sql } from "drizzle-orm";
import type { DatabaseTransaction } from "@/db/client";
import { locations, syncSessions } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import { connectionAttentionCleared } from "./connection-attention";
import { locationShownTo, toLocationView, type LocationView, type OwnerLocationView } from "./get-location";
import { lockLocationRow } from "./location-lifecycle";

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

/**
 * A session in flight sends with the token a disconnect deletes: a queued one is cancelled at once, a running one is
 * asked to stop before its next request (as Cancel does; it may still finish). Returns their ids, each kind apart.
 */
async function stopOpenSessions(tx: DatabaseTransaction, locationId: string, now: Date): Promise<{ cancelled: string[]; askedToStop: string[] }> {
  const queued = await tx
    .update(syncSessions)
    .set({ status: "cancelled", cancelRequestedAt: now, finishedAt: now, error: "Cancelled before it started: the location was disconnected." })
    .where(and(eq(syncSessions.locationId, locationId), eq(syncSessions.status, "queued")))
    .returning({ id: syncSessions.id });
  const running = await tx
    .update(syncSessions)
    .set({ cancelRequestedAt: now })
    .where(and(eq(syncSessions.locationId, locationId), eq(syncSessions.status, "running"), isNull(syncSessions.cancelRequestedAt)))
    .returning({ id: syncSessions.id });
  return { cancelled: queued.map((session) => session.id), askedToStop: running.map((session) => session.id) };
}

/**
 * Deletes the Location Access Token and who connected it, and stops the session in flight. Disconnecting twice changes
 * nothing the second time.
 */
export async function disconnectLocation(ctx: OperationContext, { locationId }: { locationId: string }): Promise<LocationView | OwnerLocationView> {
  const { db, actor } = ctx;
  const now = nowOf(ctx);
  await assertCanAtLocation(db, actor, "location.connect", locationId);
  return db.transaction(async (tx) => {
    // The sessions in flight before the location: a session's own write holds its row, then inserts rows that name the
    // location (a key-share lock on it); locking the location first deadlocked with such a write.
    await tx.execute(sql`select id from sync_sessions where location_id = ${locationId} and status in ('queued', 'running') order by id for update`);
    // Locked: a session cannot start meanwhile (its request reads the row under a share lock and then finds no token).
    const location = await lockLocationRow(tx, locationId);
    if (!location.locationTokenEncrypted) return locationShownTo(ctx.actor, toLocationView(location));
    // A sync session's attention stays: its upstream session may still be open, to resume or close once reconnected.
    const [row] = await tx
      .update(locations)
      .set({ ...disconnectedColumns(now), ...connectionAttentionCleared })
      .where(eq(locations.id, location.id))
      .returning();
    const { cancelled, askedToStop } = await stopOpenSessions(tx, location.id, now);
    await recordAuditEvent(tx, {
      actor,
      action: "location.disconnected",
      target: { type: "location", id: location.id, label: location.name },
      details: {
        upstreamAccountEmail: location.upstreamAccountEmail,
        connectedAt: location.connectedAt?.toISOString() ?? null,
        ...(cancelled.length && { cancelledSessionIds: cancelled }),
        ...(askedToStop.length && { stopRequestedSessionIds: askedToStop }),
      },
    });
    return locationShownTo(ctx.actor, toLocationView(row!));
  });
}

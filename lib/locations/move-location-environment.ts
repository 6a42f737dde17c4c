import { eq } from "drizzle-orm";
import { locations } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { DomainError } from "@/lib/errors/domain-error";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import { connectionAttentionCleared } from "./connection-attention";
import { disconnectedColumns } from "./disconnect-location";
import { toLocationView, type LocationView } from "./get-location";
import type { MoveLocationEnvironmentInput } from "./location-inputs";
import { assertNoOpenSession, assertNotArchived, assertUpstreamSessionClosed, lockLocationRow } from "./location-lifecycle";
import { assertUpstreamLocationIdFree, upstreamKeyViolation } from "./upstream-id-conflict";
import { forgetAcceptedRecords } from "@/lib/sync/unsynced-keys";

export const movedReason = (environment: string) => `Moved to ${environment}`;

/**
 * The guided reconnect's first half: the location moves to another environment (staging → production), with its
 * upstream location ID there. The old token was issued by the other environment: it is deleted, and the owner
 * connects again. What the old environment accepted (synced_records) says nothing about the new one: it is
 * forgotten, and the first session there is full.
 */
export async function moveLocationEnvironment(
  ctx: OperationContext,
  { locationId, ...input }: MoveLocationEnvironmentInput & { locationId: string },
): Promise<LocationView> {
  const { db, actor } = ctx;
  const now = nowOf(ctx);
  await assertCanAtLocation(db, actor, "location.environment.move", locationId);
  try {
    return await db.transaction(async (tx) => {
      const row = await lockLocationRow(tx, locationId);
      assertNotArchived(row);
      if (row.environment === input.environment)
        throw new DomainError("INVALID", `The location is in ${row.environment} already.`, [
          { field: "environment", reason: "is the current environment" },
        ]);
      await assertNoOpenSession(tx, locationId, "move it");
      await assertUpstreamSessionClosed(tx, row, "move it");
      const upstreamLocationId = input.upstreamLocationId ?? row.upstreamLocationId;
      if (upstreamLocationId)
        await assertUpstreamLocationIdFree(tx, { environment: input.environment, upstreamLocationId, exceptLocationId: locationId });
      await forgetAcceptedRecords(tx, locationId);
      const [moved] = await tx
        .update(locations)
        .set({
          ...disconnectedColumns(now),
          ...connectionAttentionCleared,
          environment: input.environment,
          upstreamLocationId,
          fullSyncReason: movedReason(input.environment),
        })
        .where(eq(locations.id, locationId))
        .returning();
      await recordAuditEvent(tx, {
        actor,
        action: "location.environment_moved",
        target: { type: "location", id: row.id, label: row.name },
        details: {
          environment: { from: row.environment, to: input.environment },
          upstreamLocationId: { from: row.upstreamLocationId, to: upstreamLocationId },
          wasConnected: row.locationTokenEncrypted !== null,
        },
      });
      return toLocationView(moved!);
    });
  } catch (error) {
    throw upstreamKeyViolation(error) ?? error;
  }
}

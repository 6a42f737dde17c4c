import { eq } from "drizzle-orm";
import { locations } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import { DomainError } from "@/lib/errors/domain-error";
import { toLocationView, type LocationRow, type LocationView } from "./get-location";
import type { LocationUpdateInput } from "./location-inputs";
import { assertNoOpenSession, assertNotArchived, assertUpstreamSessionClosed } from "./location-lifecycle";
import { assertUpstreamLocationIdFree, upstreamKeyViolation } from "./upstream-id-conflict";
import { forgetAcceptedRecords } from "@/lib/sync/unsynced-keys";
import { anythingAccepted } from "@/lib/sync/synced-records/lookups";

type EditableField = keyof LocationUpdateInput;
type Change = { from: unknown; to: unknown };

/** The token was issued for one upstream location in one environment: it cannot follow a change of either. */
const fieldsBoundToToken: readonly EditableField[] = ["environment", "upstreamLocationId"];
export const DISCONNECT_FIRST = "Disconnect the location first: its token belongs to the upstream location it was connected to.";
/** locations.full_sync_reason after a change of source key: the upstream holds records read from the old one. */
export const SOURCE_KEY_CHANGED = "The source key changed";
/** locations.full_sync_reason after a change of environment or upstream location ID of a location that had synced. */
export const UPSTREAM_CHANGED = "The upstream location changed";

function changesOf(row: LocationRow, input: LocationUpdateInput): Partial<Record<EditableField, Change>> {
  const changes: Partial<Record<EditableField, Change>> = {};
  for (const field of Object.keys(input) as EditableField[]) {
    const to = input[field];
    if (to !== undefined && to !== row[field]) changes[field] = { from: row[field], to };
  }
  return changes;
}

/** Edits a location's settings. A no-op edit writes nothing, not even an audit entry. */
export async function updateLocation(
  ctx: OperationContext,
  { locationId: id, ...input }: LocationUpdateInput & { locationId: string },
): Promise<LocationView> {
  const { db, actor } = ctx;
  await assertCanAtLocation(db, actor, "location.edit", id);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.select().from(locations).where(eq(locations.id, id)).for("update").limit(1);
      if (!row) throw new DomainError("NOT_FOUND", "Location not found.");
      assertNotArchived(row);
      const changes = changesOf(row, input);
      const changedFields = Object.keys(changes) as EditableField[];
      if (changedFields.length === 0) return toLocationView(row);

      const connected = row.locationTokenEncrypted !== null;
      const blocked = connected ? fieldsBoundToToken.filter((field) => changes[field]) : [];
      if (blocked.length)
        throw new DomainError(
          "CONFLICT",
          DISCONNECT_FIRST,
          blocked.map((field) => ({ field, reason: DISCONNECT_FIRST })),
        );

      // The session in flight (of a location just disconnected) still sends to the upstream location it read, and
      // records what it got accepted: another one is set only once it has ended.
      if (changes.environment || changes.upstreamLocationId) {
        await assertNoOpenSession(tx, id, "change where it syncs to");
        await assertUpstreamSessionClosed(tx, row, "change where it syncs to");
      }
      const environment = input.environment ?? row.environment;
      const upstreamLocationId = input.upstreamLocationId ?? row.upstreamLocationId;
      if ((changes.environment || changes.upstreamLocationId) && upstreamLocationId) {
        await assertUpstreamLocationIdFree(tx, { environment, upstreamLocationId, exceptLocationId: id });
      }

      const values = Object.fromEntries(changedFields.map((field) => [field, input[field]])) as LocationUpdateInput;
      // Another source key means other rows: the next sync session is full (first setting a key, nothing synced yet, is not a change).
      const rebuildsSync = changes.sourceKey !== undefined && (row.sourceKey !== null || (await anythingAccepted(tx, id)));
      // As a move (./move-location-environment.ts): what the old upstream location accepted says nothing about the new one.
      const leavesUpstream = (changes.environment !== undefined || changes.upstreamLocationId !== undefined) && (await anythingAccepted(tx, id));
      if (leavesUpstream) await forgetAcceptedRecords(tx, id);
      const fullSyncReason = leavesUpstream ? UPSTREAM_CHANGED : rebuildsSync ? SOURCE_KEY_CHANGED : undefined;
      const [updated] = await tx
        .update(locations)
        .set({ ...values, ...(fullSyncReason ? { fullSyncReason } : {}), updatedAt: nowOf(ctx) })
        .where(eq(locations.id, id))
        .returning();
      if (!updated) throw new Error("update returned no row");
      await recordAuditEvent(tx, {
        actor,
        action: "location.updated",
        target: { type: "location", id, label: updated.name },
        details: { changed: changes },
      });
      return toLocationView(updated);
    });
  } catch (error) {
    throw upstreamKeyViolation(error) ?? error;
  }
}

import { locations } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCan } from "@/lib/auth/permissions";
import type { OperationContext } from "@/lib/operations/context";
import { toLocationView, type LocationView } from "./get-location";
import type { LocationInput } from "./location-inputs";
import { assertUpstreamLocationIdFree, upstreamKeyViolation } from "./upstream-id-conflict";

/** Adds a location (not yet connected: the owner connects it later). */
export async function createLocation(ctx: OperationContext, input: LocationInput): Promise<LocationView> {
  const { db, actor } = ctx;
  assertCan(actor, "location.create");
  try {
    return await db.transaction(async (tx) => {
      await assertUpstreamLocationIdFree(tx, { environment: input.environment, upstreamLocationId: input.upstreamLocationId });
      const [row] = await tx.insert(locations).values(input).returning();
      if (!row) throw new Error("insert returned no row");
      await recordAuditEvent(tx, {
        actor,
        action: "location.created",
        target: { type: "location", id: row.id, label: row.name },
        details: {
          name: row.name,
          timeZone: row.timeZone,
          country: row.country,
          environment: row.environment,
          upstreamLocationId: row.upstreamLocationId,
          sourceKey: row.sourceKey,
          automotive: row.automotive,
          syncTime: row.syncTime,
        },
      });
      return toLocationView(row);
    });
  } catch (error) {
    throw upstreamKeyViolation(error) ?? error;
  }
}

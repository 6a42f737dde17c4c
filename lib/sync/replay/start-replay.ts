import { eq } from "drizzle-orm";
import { locations } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { DomainError } from "@/lib/errors/domain-error";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import { appointmentHorizonEnd } from "../plan/local-dates";
import { assertSessionStarted, requestSyncSession } from "../request-session";
import type { ReplayInput } from "../session-inputs";

/**
 * A scoped replay: the chosen steps (appointments: of a date range) sent again from the source inside an upstream
 * session of their own, and nothing else. Audited with who asked and why; the history names it as a replay.
 */
export async function startReplay(
  ctx: OperationContext,
  input: ReplayInput & { locationId: string; trigger?: "manual" | "cli" },
): Promise<{ sessionId: string }> {
  const { db, actor } = ctx;
  await assertCanAtLocation(db, actor, "sync.replay", input.locationId);
  const [location] = await db
    .select({ name: locations.name, automotive: locations.automotive, timeZone: locations.timeZone })
    .from(locations)
    .where(eq(locations.id, input.locationId));
  if (!location) throw new DomainError("NOT_FOUND", "Location not found.");
  if (input.steps.includes("vehicles") && !location.automotive) {
    throw new DomainError("INVALID", "This location sends no vehicles (it is not an automotive business).", [
      { field: "steps", reason: "vehicles are sent only for automotive locations" },
    ]);
  }
  const horizonEnd = appointmentHorizonEnd(nowOf(ctx), location.timeZone);
  if (input.from && input.from > horizonEnd) {
    // Nothing of it would be sent: appointments go up to today + 6 months (spec 4.4).
    throw new DomainError("INVALID", `Appointments are sent up to ${horizonEnd} (6 months ahead); this range starts after it.`, [
      { field: "from", reason: `must be on or before ${horizonEnd}, the last date appointments are sent for` },
    ]);
  }
  const replay = { steps: input.steps, from: input.from ?? null, to: input.to ?? null, reason: input.reason };
  const result = await requestSyncSession(ctx, { locationId: input.locationId, trigger: input.trigger ?? "manual", replay });
  assertSessionStarted(result);
  await recordAuditEvent(db, {
    actor,
    action: "sync.replay_started",
    target: { type: "location", id: input.locationId, label: location.name },
    details: { sessionId: result.sessionId, ...replay },
  });
  return { sessionId: result.sessionId };
}

import { eq } from "drizzle-orm";
import { z } from "zod";
import { locations } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { DomainError } from "@/lib/errors/domain-error";
import { assertNotArchived } from "@/lib/locations/location-lifecycle";
import { safeText } from "@/lib/validation/safe-text";
import { nowOf, type OperationContext } from "@/lib/operations/context";

export const SchedulePauseInput = z
  .object({
    paused: z.boolean(),
    reason: safeText({ lineBreaks: true }).trim().max(500, "Keep the reason under 500 characters").optional(),
  })
  .refine((input) => !input.paused || Boolean(input.reason), { path: ["reason"], message: "Say why the schedule is paused" });
export type SchedulePauseInput = z.infer<typeof SchedulePauseInput>;

export interface SchedulePauseState {
  paused: boolean;
  pausedAt: Date | null;
  pausedByEmail: string | null;
  reason: string | null;
}

/**
 * Pauses or resumes a location's daily schedule (manual syncs still run), with who and why.
 * Asking for the state it is already in changes nothing and records nothing.
 */
export async function setSchedulePaused(
  ctx: OperationContext,
  { locationId, ...input }: SchedulePauseInput & { locationId: string },
): Promise<SchedulePauseState> {
  const { db, actor } = ctx;
  const now = nowOf(ctx);
  await assertCanAtLocation(db, actor, "schedule.pause", locationId);
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(locations).where(eq(locations.id, locationId)).for("update").limit(1);
    if (!row) throw new DomainError("NOT_FOUND", "Location not found.");
    assertNotArchived(row);
    const wasPaused = row.schedulePausedAt !== null;
    if (wasPaused === input.paused) return stateOf(row);
    const [updated] = await tx
      .update(locations)
      .set(
        input.paused
          ? { schedulePausedAt: now, schedulePausedByEmail: actor.email, schedulePauseReason: input.reason ?? null, updatedAt: now }
          : { schedulePausedAt: null, schedulePausedByEmail: null, schedulePauseReason: null, updatedAt: now },
      )
      .where(eq(locations.id, locationId))
      .returning();
    if (!updated) throw new Error("update returned no row");
    await recordAuditEvent(tx, {
      actor,
      action: input.paused ? "location.schedule_paused" : "location.schedule_resumed",
      target: { type: "location", id: locationId, label: updated.name },
      details: input.reason ? { reason: input.reason } : undefined,
    });
    return stateOf(updated);
  });
}

function stateOf(row: typeof locations.$inferSelect): SchedulePauseState {
  return {
    paused: row.schedulePausedAt !== null,
    pausedAt: row.schedulePausedAt,
    pausedByEmail: row.schedulePausedByEmail,
    reason: row.schedulePauseReason,
  };
}

import { and, desc, eq } from "drizzle-orm";
import { syncSessions, type ConfirmedRemovals } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { assertCan } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import type { OperationContext } from "@/lib/operations/context";
import { assertSessionStarted, requestSyncSession } from "./request-session";
import type { ConfirmRemovalsInput } from "./session-inputs";
import type { OptionalStepName } from "./step-names";

/**
 * "Confirm and send": a person accepts the removals the safety valve stopped a session for. A new session runs with
 * those numbers as its limits (more removals than confirmed stop it again), and the confirmation is audited.
 */
export async function confirmRemovals(ctx: OperationContext, input: ConfirmRemovalsInput & { sessionId: string }): Promise<{ sessionId: string }> {
  const { db, actor } = ctx;
  const { sessionId } = input;
  assertCan(actor, "sync.confirm-removals");
  const [stopped] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
  if (!stopped) throw new DomainError("NOT_FOUND", "Sync session not found.");
  await assertCanAtLocation(db, actor, "sync.confirm-removals", stopped.locationId, { hiddenAs: "Sync session not found." });
  if (stopped.status !== "failed" || !stopped.removalStop) {
    throw new DomainError("CONFLICT", "This session was not stopped by the removal safety valve: there is nothing to confirm.");
  }
  const [latest] = await db
    .select({ id: syncSessions.id })
    .from(syncSessions)
    .where(and(eq(syncSessions.locationId, stopped.locationId)))
    .orderBy(desc(syncSessions.createdAt))
    .limit(1);
  if (latest?.id !== stopped.id) {
    throw new DomainError("CONFLICT", "A later session of this location ran since this one stopped: confirm the latest one, if it stopped too.");
  }
  const confirmed: ConfirmedRemovals = {
    limits: Object.fromEntries(stopped.removalStop.checks.map((check) => [check.step, check.removals])),
    byEmail: actor.email,
    reason: input.reason,
  };
  const result = await requestSyncSession(ctx, {
    locationId: stopped.locationId,
    trigger: "manual",
    requestedByEmail: actor.email,
    full: stopped.full,
    optionalSteps: stopped.optionalSteps as OptionalStepName[],
    confirmedRemovals: confirmed,
    replay: stopped.replay,
  });
  assertSessionStarted(result);
  await recordAuditEvent(db, {
    actor,
    action: "sync.removals_confirmed",
    target: { type: "location", id: stopped.locationId },
    details: {
      stoppedSessionId: stopped.id,
      sessionId: result.sessionId,
      checks: stopped.removalStop.checks.map(({ step, removals, held }) => ({ step, removals, held })),
      reason: input.reason,
    },
  });
  return { sessionId: result.sessionId };
}

import { and, eq, isNull } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locations, syncSessions } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { assertCan } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import { assertSessionStarted, requestSyncSession, type StartedSessionRequest } from "./request-session";
import type { OptionalStepName } from "./step-names";

async function findSession(db: DatabaseOrTransaction, sessionId: string) {
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
  if (!session) throw new DomainError("NOT_FOUND", "Sync session not found.");
  return session;
}

/** The audit target of a sync action: the location, named as it is now. */
export async function locationAuditTarget(db: DatabaseOrTransaction, locationId: string) {
  const [location] = await db.select({ name: locations.name }).from(locations).where(eq(locations.id, locationId));
  return { type: "location", id: locationId, label: location?.name };
}

/**
 * A new session (trigger "resume") that continues a failed or cancelled one from its failed
 * step: items the upstream already accepted are not sent again, and an upstream session
 * still open is not opened again. Audited with who asked, when it starts; refused (sessionRequestMessage) when it cannot.
 */
export async function resumeSession(ctx: OperationContext, input: { sessionId: string }): Promise<StartedSessionRequest> {
  const { sessionId } = input;
  const { db, actor } = ctx;
  assertCan(actor, "sync.resume");
  const session = await findSession(db, sessionId);
  await assertCanAtLocation(db, actor, "sync.resume", session.locationId, { hiddenAs: "Sync session not found." });
  if (session.status !== "failed" && session.status !== "cancelled") {
    throw new DomainError("CONFLICT", `Only a failed or cancelled session can be resumed; this one is ${session.status}.`);
  }
  const result = await requestSyncSession(ctx, {
    locationId: session.locationId,
    trigger: "resume",
    requestedByEmail: actor.email ?? session.requestedByEmail,
    full: session.full,
    optionalSteps: session.optionalSteps as OptionalStepName[],
    resumesSessionId: session.id,
    replay: session.replay,
  });
  assertSessionStarted(result);
  await recordAuditEvent(db, {
    actor,
    action: "sync.session_resumed",
    target: await locationAuditTarget(db, session.locationId),
    details: { sessionId: result.sessionId, resumesSessionId: session.id },
  });
  return result;
}

/**
 * Asks a session to stop between requests; a queued one that no worker took yet is cancelled at once.
 * Audited when it changed something (a finished session is left as it is): a queued one as cancelled, a running one as
 * a cancel requested, since it may still finish (the cancel came after its last request); its status says how it ended.
 */
export async function cancelSession(ctx: OperationContext, { sessionId }: { sessionId: string }): Promise<{ status: string }> {
  const { db, actor } = ctx;
  const now = nowOf(ctx);
  assertCan(actor, "sync.cancel");
  const session = await findSession(db, sessionId);
  await assertCanAtLocation(db, actor, "sync.cancel", session.locationId, { hiddenAs: "Sync session not found." });
  const audit = async (was: "queued" | "running") =>
    recordAuditEvent(db, {
      actor,
      action: was === "queued" ? "sync.session_cancelled" : "sync.session_cancel_requested",
      target: await locationAuditTarget(db, session.locationId),
      details: { sessionId, was },
    });
  const [queued] = await db
    .update(syncSessions)
    .set({ status: "cancelled", cancelRequestedAt: now, finishedAt: now, error: "Cancelled before it started." })
    .where(and(eq(syncSessions.id, sessionId), eq(syncSessions.status, "queued")))
    .returning({ status: syncSessions.status });
  if (queued) {
    await audit("queued");
    return queued;
  }
  const [running] = await db
    .update(syncSessions)
    .set({ cancelRequestedAt: now })
    .where(and(eq(syncSessions.id, sessionId), eq(syncSessions.status, "running"), isNull(syncSessions.cancelRequestedAt)))
    .returning({ status: syncSessions.status });
  if (running) await audit("running");
  // Already asked to stop: the first request stands (its time, its one audit entry).
  return running ?? { status: (await findSession(db, sessionId)).status };
}

import { and, eq, inArray, like } from "drizzle-orm";
import { locations, syncAttempts, syncSessions, syncSteps } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { assertCan } from "@/lib/auth/permissions";
import { createEnvironmentClient } from "@/lib/environments/environment-client";
import { getEnvironmentCredentials } from "@/lib/environments/get-environment-credentials";
import { DomainError } from "@/lib/errors/domain-error";
import { openLocationToken } from "@/lib/locations/location-token";
import type { OperationContext } from "@/lib/operations/context";
import { UpstreamError } from "@/lib/upstream/errors";
import type { AttemptReport } from "@/lib/upstream/http";
import { describeSyncError } from "./describe-sync-error";

/**
 * The explicit "close upstream session" of a failed or cancelled session that left it
 * open: sync in progress false, so the service processes what it got and sends campaigns.
 * Every exchange is recorded on the session's close step; who asked, and whether the upstream
 * closed it, is audited.
 */
export async function closeUpstreamSession(ctx: OperationContext, { sessionId }: { sessionId: string }): Promise<void> {
  const { db, actor } = ctx;
  assertCan(actor, "sync.close-upstream");
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
  if (!session) throw new DomainError("NOT_FOUND", "Sync session not found.");
  await assertCanAtLocation(db, actor, "sync.close-upstream", session.locationId, { hiddenAs: "Sync session not found." });
  if (!session.upstreamOpen) throw new DomainError("CONFLICT", "This session did not leave the upstream session open.");
  if (session.status === "queued" || session.status === "running")
    throw new DomainError("CONFLICT", "The session is still running: cancel it first.");
  const [location] = await db.select().from(locations).where(eq(locations.id, session.locationId));
  if (!location?.upstreamLocationId) throw new DomainError("CONFLICT", "This location is not connected.");
  const [closeStep] = await db
    .select()
    .from(syncSteps)
    .where(and(eq(syncSteps.sessionId, sessionId), eq(syncSteps.name, "close")));
  const reports: AttemptReport[] = [];
  const credentials = await getEnvironmentCredentials(db, session.environment);
  // Refused before any request when the environment's base URL no longer names the token's origin.
  const accessToken = openLocationToken(location, credentials);
  const client = createEnvironmentClient(credentials, { ...ctx.upstreamClient, onAttempt: (report) => void reports.push(report) });
  let failure: unknown;
  try {
    await client.updateManagementSystem({
      accessToken,
      locationId: location.upstreamLocationId,
      managementSystem: credentials.dataSourceName,
      syncInProgress: false,
    });
  } catch (error) {
    failure = error;
  } finally {
    await client.close();
  }
  await db.transaction(async (tx) => {
    if (reports.length) {
      await tx.insert(syncAttempts).values(
        reports.map((report) => ({
          sessionId,
          stepId: closeStep?.id ?? null,
          operation: report.operation,
          attempt: report.attempt,
          method: report.method,
          path: report.path,
          status: report.status ?? null,
          durationMs: Math.round(report.durationMs),
          retryDelayMs: report.retryDelayMs ?? null,
          error: report.error ?? null,
          startedAt: report.startedAt,
          ...report.exchange,
        })),
      );
    }
    const target = { type: "location", id: location.id, label: location.name };
    if (failure) {
      const reason = failure instanceof UpstreamError ? describeSyncError(failure) : "unexpected error";
      await recordAuditEvent(tx, { actor, action: "sync.upstream_close_failed", target, details: { sessionId, reason } });
      return;
    }
    await recordAuditEvent(tx, { actor, action: "sync.upstream_closed", target, details: { sessionId } });
    await tx
      .update(syncSessions)
      .set({ upstreamOpen: false })
      .where(and(eq(syncSessions.id, sessionId), inArray(syncSessions.status, ["failed", "cancelled"])));
    if (closeStep) await tx.update(syncSteps).set({ status: "succeeded", error: null, finishedAt: new Date() }).where(eq(syncSteps.id, closeStep.id));
    await tx
      .update(locations)
      .set({ attentionReason: null, attentionSince: null, updatedAt: new Date() })
      .where(and(eq(locations.id, location.id), like(locations.attentionReason, "The last sync %")));
  });
  // The attempt is in the session's history; the caller gets the upstream's (redacted) answer.
  if (failure instanceof UpstreamError)
    throw new DomainError("UPSTREAM_UNAVAILABLE", `The upstream did not close the session: ${describeSyncError(failure)}`);
  if (failure) throw failure;
}

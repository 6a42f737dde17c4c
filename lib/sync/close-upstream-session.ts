import { and, eq } from "drizzle-orm";
import { locations, syncAttempts, syncSessions, syncSteps } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { assertCan } from "@/lib/auth/permissions";
import { createEnvironmentClient } from "@/lib/environments/environment-client";
import { getEnvironmentCredentials } from "@/lib/environments/get-environment-credentials";
import { DomainError } from "@/lib/errors/domain-error";
import { assertNoOpenSession, lockLocationRow } from "@/lib/locations/location-lifecycle";
import { hasSessionAttention } from "@/lib/locations/connection-attention";
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
  const [found] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
  if (!found) throw new DomainError("NOT_FOUND", "Sync session not found.");
  await assertCanAtLocation(db, actor, "sync.close-upstream", found.locationId, { hiddenAs: "Sync session not found." });
  // The location's row stays locked through the exchange: a session cannot start meanwhile (and take the open upstream
  // session over, or open one this close would end), nor can the location be archived, deleted or closed twice.
  const failure = await db.transaction(async (tx) => {
    const location = await lockLocationRow(tx, found.locationId);
    const [session] = await tx.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
    if (!session) throw new DomainError("NOT_FOUND", "Sync session not found.");
    if (session.status === "queued" || session.status === "running")
      throw new DomainError("CONFLICT", "The session is still running: cancel it first.");
    if (!session.upstreamOpen)
      throw new DomainError("CONFLICT", "This session did not leave the upstream session open (or it was closed or taken over since).");
    await assertNoOpenSession(tx, location.id, "close the upstream session");
    if (!location.upstreamLocationId) throw new DomainError("CONFLICT", "This location is not connected.");
    // The location's token and ID name its current upstream location: a close sent there would not end this session's.
    if (session.environment !== location.environment || session.upstreamLocationId !== location.upstreamLocationId)
      throw new DomainError(
        "CONFLICT",
        `This session's upstream session is open at ${session.upstreamLocationId ? `upstream location “${session.upstreamLocationId}”` : "another upstream location"} ` +
          `(${session.environment}), and the location now syncs to “${location.upstreamLocationId}” (${location.environment}): ` +
          "its token is for that one, so this session's upstream session cannot be closed from here.",
      );
    const [closeStep] = await tx
      .select()
      .from(syncSteps)
      .where(and(eq(syncSteps.sessionId, sessionId), eq(syncSteps.name, "close")));
    const reports: AttemptReport[] = [];
    const credentials = await getEnvironmentCredentials(tx, session.environment);
    // Refused before any request when the environment's base URL no longer names the token's origin.
    const accessToken = openLocationToken(location, credentials);
    const client = createEnvironmentClient(credentials, { ...ctx.upstreamClient, onAttempt: (report) => void reports.push(report) });
    let failed: unknown;
    try {
      await client.updateManagementSystem({
        accessToken,
        locationId: location.upstreamLocationId,
        managementSystem: credentials.dataSourceName,
        syncInProgress: false,
      });
    } catch (error) {
      failed = error;
    } finally {
      await client.close();
    }
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
    if (failed) {
      const reason = failed instanceof UpstreamError ? describeSyncError(failed) : "unexpected error";
      await recordAuditEvent(tx, { actor, action: "sync.upstream_close_failed", target, details: { sessionId, reason } });
      return failed;
    }
    await recordAuditEvent(tx, { actor, action: "sync.upstream_closed", target, details: { sessionId } });
    await tx.update(syncSessions).set({ upstreamOpen: false }).where(eq(syncSessions.id, sessionId));
    if (closeStep) await tx.update(syncSteps).set({ status: "succeeded", error: null, finishedAt: new Date() }).where(eq(syncSteps.id, closeStep.id));
    await tx
      .update(locations)
      .set({ attentionReason: null, attentionSince: null, updatedAt: new Date() })
      .where(and(eq(locations.id, location.id), hasSessionAttention));
    return undefined;
  });
  // The attempt is in the session's history; the caller gets the upstream's (redacted) answer.
  if (failure instanceof UpstreamError)
    throw new DomainError("UPSTREAM_UNAVAILABLE", `The upstream did not close the session: ${describeSyncError(failure)}`);
  if (failure) throw failure;
}

import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import { syncSessions } from "@/db/schema";
import { DomainError } from "@/lib/errors/domain-error";
import { requestSyncSession, type RequestSessionResult } from "./request-session";
import type { OptionalStepName } from "./step-names";

async function findSession(db: Database, sessionId: string) {
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
  if (!session) throw new DomainError("NOT_FOUND", "Sync session not found.");
  return session;
}

/**
 * A new session (trigger "resume") that continues a failed or cancelled one from its failed
 * step: items the upstream already accepted are not sent again, and an upstream session
 * still open is not opened again.
 */
export async function resumeSession(db: Database, sessionId: string, requestedByEmail: string | null = null): Promise<RequestSessionResult> {
  const session = await findSession(db, sessionId);
  if (session.status !== "failed" && session.status !== "cancelled") {
    throw new DomainError("CONFLICT", `Only a failed or cancelled session can be resumed; this one is ${session.status}.`);
  }
  return requestSyncSession(db, {
    locationId: session.locationId,
    trigger: "resume",
    requestedByEmail: requestedByEmail ?? session.requestedByEmail,
    full: session.full,
    optionalSteps: session.optionalSteps as OptionalStepName[],
    resumesSessionId: session.id,
  });
}

/** Asks a session to stop between requests; a queued one that no worker took yet is cancelled at once. */
export async function cancelSession(db: Database, sessionId: string): Promise<{ status: string }> {
  const session = await findSession(db, sessionId);
  const [queued] = await db
    .update(syncSessions)
    .set({ status: "cancelled", cancelRequestedAt: new Date(), finishedAt: new Date(), error: "Cancelled before it started." })
    .where(and(eq(syncSessions.id, sessionId), eq(syncSessions.status, "queued")))
    .returning({ status: syncSessions.status });
  if (queued) return queued;
  const [running] = await db
    .update(syncSessions)
    .set({ cancelRequestedAt: new Date() })
    .where(and(eq(syncSessions.id, sessionId), inArray(syncSessions.status, ["running"])))
    .returning({ status: syncSessions.status });
  return running ?? { status: session.status };
}

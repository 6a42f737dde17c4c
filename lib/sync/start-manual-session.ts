import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { locations, syncSessions } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import type { OperationActor } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { requestSyncSession } from "./request-session";
import { serializeDates, type Serialized } from "./serialize-dates";
import { sessionSummaryColumns } from "./session-columns";
import type { StartSessionInput } from "./session-inputs";
import { isOutsideSyncWindow } from "./sync-window";

function selectStartedSession(db: Database, sessionId: string) {
  return db.select(sessionSummaryColumns).from(syncSessions).where(eq(syncSessions.id, sessionId));
}

export interface StartedSession {
  sessionId: string;
  session: Serialized<Awaited<ReturnType<typeof selectStartedSession>>[number]>;
  /** The location's local time is outside 09:00–19:00: campaigns may go out at night. */
  outsideWindow: boolean;
}

/** Who started a session (dashboard or CLI), in the audit log. */
export async function recordSessionStarted(
  db: Database,
  actor: OperationActor,
  session: { sessionId: string; locationId: string; locationName?: string; trigger: "manual" | "cli"; full: boolean },
) {
  await recordAuditEvent(db, {
    actor,
    action: "sync.session_started",
    target: { type: "location", id: session.locationId, label: session.locationName },
    details: { sessionId: session.sessionId, trigger: session.trigger, full: session.full },
  });
}

/** "Sync now" / "Full resync" from the dashboard: a manual session (audited), or a conflict naming the one already open. */
export async function startManualSession(
  db: Database,
  actor: OperationActor,
  input: StartSessionInput & { locationId: string },
  now: Date = new Date(),
): Promise<StartedSession> {
  await assertCanAtLocation(db, actor, "sync.start", input.locationId);
  const [location] = await db
    .select({ name: locations.name, timeZone: locations.timeZone })
    .from(locations)
    .where(eq(locations.id, input.locationId));
  if (!location) throw new DomainError("NOT_FOUND", "Location not found.");
  const result = await requestSyncSession(db, {
    locationId: input.locationId,
    trigger: "manual",
    requestedByEmail: actor.email,
    full: input.full,
    optionalSteps: input.optionalSteps,
  });
  if (result.started) {
    await recordSessionStarted(db, actor, {
      sessionId: result.sessionId,
      locationId: input.locationId,
      locationName: location.name,
      trigger: "manual",
      full: input.full,
    });
    // The worker may already have moved it on; this is the session as it stands now.
    const [session] = await selectStartedSession(db, result.sessionId);
    if (!session) throw new Error(`session ${result.sessionId} vanished`);
    return { sessionId: result.sessionId, session: serializeDates(session), outsideWindow: isOutsideSyncWindow(location.timeZone, now) };
  }
  if (result.reason === "not_connected") throw new DomainError("CONFLICT", "Connect the location first: a sync uses its access token.");
  throw new DomainError("CONFLICT", `Session ${result.sessionId} is already open for this location: wait for it to finish or cancel it.`);
}

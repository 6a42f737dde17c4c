import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { locations, syncSessions } from "@/db/schema";
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

/** "Sync now" / "Full resync" from the dashboard: a manual session, or a conflict naming the one already open. */
export async function startManualSession(
  db: Database,
  input: StartSessionInput & { locationId: string; requestedByEmail: string },
  now: Date = new Date(),
): Promise<StartedSession> {
  const [location] = await db.select({ timeZone: locations.timeZone }).from(locations).where(eq(locations.id, input.locationId));
  if (!location) throw new DomainError("NOT_FOUND", "Location not found.");
  const result = await requestSyncSession(db, {
    locationId: input.locationId,
    trigger: "manual",
    requestedByEmail: input.requestedByEmail,
    full: input.full,
    optionalSteps: input.optionalSteps,
  });
  if (result.started) {
    // The worker may already have moved it on; this is the session as it stands now.
    const [session] = await selectStartedSession(db, result.sessionId);
    if (!session) throw new Error(`session ${result.sessionId} vanished`);
    return { sessionId: result.sessionId, session: serializeDates(session), outsideWindow: isOutsideSyncWindow(location.timeZone, now) };
  }
  if (result.reason === "not_connected") throw new DomainError("CONFLICT", "Connect the location first: a sync uses its access token.");
  throw new DomainError("CONFLICT", `Session ${result.sessionId} is already open for this location: wait for it to finish or cancel it.`);
}

import { eq } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locations, syncSessions } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { DomainError } from "@/lib/errors/domain-error";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import { assertSessionStarted, requestSyncSession } from "./request-session";
import { serializeDates, type Serialized } from "./serialize-dates";
import { sessionSummaryColumns } from "./session-columns";
import type { StartSessionInput } from "./session-inputs";
import { isOutsideSyncWindow } from "./sync-window";

function selectStartedSession(db: DatabaseOrTransaction, sessionId: string) {
  return db.select(sessionSummaryColumns).from(syncSessions).where(eq(syncSessions.id, sessionId));
}

export interface StartedSession {
  sessionId: string;
  session: Serialized<Awaited<ReturnType<typeof selectStartedSession>>[number]>;
  /** The location's local time is outside 09:00–19:00: campaigns may go out at night. */
  outsideWindow: boolean;
}

export type StartManualSessionInput = StartSessionInput & {
  locationId: string;
  /** "manual" from the dashboard (default), "cli" from `npm run cli -- sync`. */
  trigger?: "manual" | "cli";
};

/**
 * "Sync now" / "Full resync" from the dashboard, or `sync` from the CLI: a session (audited with who started it), or a
 * conflict that names the session already open (sessionRequestMessage).
 */
export async function startManualSession(ctx: OperationContext, input: StartManualSessionInput): Promise<StartedSession> {
  const { db, actor } = ctx;
  const trigger = input.trigger ?? "manual";
  await assertCanAtLocation(db, actor, "sync.start", input.locationId);
  const [location] = await db
    .select({ name: locations.name, timeZone: locations.timeZone })
    .from(locations)
    .where(eq(locations.id, input.locationId));
  if (!location) throw new DomainError("NOT_FOUND", "Location not found.");
  const result = await requestSyncSession(ctx, {
    locationId: input.locationId,
    trigger,
    full: input.full,
    optionalSteps: input.optionalSteps,
  });
  assertSessionStarted(result);
  await recordAuditEvent(db, {
    actor,
    action: "sync.session_started",
    target: { type: "location", id: input.locationId, label: location.name },
    details: { sessionId: result.sessionId, trigger, full: input.full },
  });
  // The worker may already have moved it on; this is the session as it stands now.
  const [session] = await selectStartedSession(db, result.sessionId);
  if (!session) throw new Error(`session ${result.sessionId} vanished`);
  return { sessionId: result.sessionId, session: serializeDates(session), outsideWindow: isOutsideSyncWindow(location.timeZone, nowOf(ctx)) };
}

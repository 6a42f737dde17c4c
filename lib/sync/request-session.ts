import { and, desc, eq, inArray } from "drizzle-orm";
import { locations, syncSessions, type ConfirmedRemovals, type SessionReplay } from "@/db/schema";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { DomainError } from "@/lib/errors/domain-error";
import { sendJob } from "@/lib/jobs/job-sender";
import { type OperationContext } from "@/lib/operations/context";
import { optionalStepNames, type OptionalStepName } from "./step-names";
import { syncSessionJob } from "./sync-session-job";

export type SyncTrigger = "schedule" | "manual" | "resume" | "cli";

export interface RequestSessionInput {
  locationId: string;
  trigger: SyncTrigger;
  /** Who the session names as having asked; default the actor's email (the schedule passes null). */
  requestedByEmail?: string | null;
  full?: boolean;
  optionalSteps?: OptionalStepName[];
  /** YYYY-MM-DD, the location's local date of a scheduled run. */
  scheduledFor?: string;
  resumesSessionId?: string;
  /** Removals a person confirmed after the safety valve stopped an earlier session (lib/sync/confirm-removals.ts). */
  confirmedRemovals?: ConfirmedRemovals;
  /** A scoped replay (lib/sync/replay): only these steps, never full. */
  replay?: SessionReplay | null;
}

export type StartedSessionRequest = { started: true; sessionId: string };
export type RefusedSessionRequest = {
  started: false;
  reason: "already_open" | "already_scheduled" | "not_connected" | "schedule_paused";
  sessionId: string | null;
};
export type RequestSessionResult = StartedSessionRequest | RefusedSessionRequest;

/** The one wording of a session request's outcome: the API, the dashboard's actions and the CLI all say it this way. */
export function sessionRequestMessage(result: RequestSessionResult): string {
  if (result.started) return `Session ${result.sessionId} queued.`;
  if (result.reason === "not_connected") return "Connect the location first: a sync uses its access token.";
  if (result.reason === "schedule_paused") return "The location's schedule is paused (or the location archived): no scheduled sync starts.";
  if (result.reason === "already_scheduled") return `Session ${result.sessionId} is already scheduled for this location today.`;
  return `Session ${result.sessionId} is already open for this location: wait for it to finish or cancel it.`;
}

/** A refused request as the error every caller throws: CONFLICT with sessionRequestMessage. */
export function assertSessionStarted(result: RequestSessionResult): asserts result is StartedSessionRequest {
  if (!result.started) throw new DomainError("CONFLICT", sessionRequestMessage(result));
}

/**
 * Queues a sync session and its pg-boss job. The database decides between racing
 * requests: one queued-or-running session per location, one scheduled run per local date.
 * The actor must be allowed "sync.start" at the location ("sync.replay" for a scoped replay).
 */
export async function requestSyncSession(ctx: OperationContext, input: RequestSessionInput): Promise<RequestSessionResult> {
  const { db, actor } = ctx;
  await assertCanAtLocation(db, actor, input.replay ? "sync.replay" : "sync.start", input.locationId);
  const locationId = input.locationId;
  const chosen: readonly string[] = input.replay ? input.replay.steps : (input.optionalSteps ?? [...optionalStepNames]);
  // Twice: the open session may finish between our insert and our look-up.
  for (let attempt = 0; attempt < 2; attempt++) {
    // The session and its job commit together: no session waits for a job that was never sent.
    const created = await db.transaction(async (tx) => {
      // Read under a share lock: an archive, disconnect or move (which lock the row for update) either waits for this
      // session and then sees it open, or commits first and this request finds the location disconnected.
      const [location] = await tx.select().from(locations).where(eq(locations.id, locationId)).for("share");
      if (!location) throw new DomainError("NOT_FOUND", "Location not found.");
      if (!location.locationTokenEncrypted || !location.upstreamLocationId) return "not_connected" as const;
      // The tick chose the location before a pause (or archive) that committed since: read again here, it starts nothing.
      if (input.trigger === "schedule" && (location.schedulePausedAt || location.archivedAt)) return "schedule_paused" as const;
      const [row] = await tx
        .insert(syncSessions)
        .values({
          locationId: location.id,
          environment: location.environment,
          upstreamLocationId: location.upstreamLocationId,
          trigger: input.trigger,
          requestedByEmail: input.requestedByEmail === undefined ? actor.email : input.requestedByEmail,
          // A location whose data changed source (fullSyncReason) is sent whole until a full session succeeds.
          full: input.replay ? false : (input.full ?? false) || location.fullSyncReason !== null,
          optionalSteps: optionalStepNames.filter((name) => chosen.includes(name)),
          scheduledFor: input.scheduledFor ?? null,
          resumesSessionId: input.resumesSessionId ?? null,
          confirmedRemovals: input.confirmedRemovals ?? null,
          replay: input.replay ?? null,
        })
        .onConflictDoNothing()
        .returning({ id: syncSessions.id });
      if (row) await sendJob(syncSessionJob, { sessionId: row.id }, { in: tx });
      return row;
    });
    if (created === "not_connected" || created === "schedule_paused") return { started: false, reason: created, sessionId: null };
    if (created) return { started: true, sessionId: created.id };
    const [open] = await db
      .select({ id: syncSessions.id })
      .from(syncSessions)
      .where(and(eq(syncSessions.locationId, locationId), inArray(syncSessions.status, ["queued", "running"])))
      .orderBy(desc(syncSessions.createdAt))
      .limit(1);
    if (open) return { started: false, reason: "already_open", sessionId: open.id };
    if (input.scheduledFor) {
      const [scheduled] = await db
        .select({ id: syncSessions.id })
        .from(syncSessions)
        .where(and(eq(syncSessions.locationId, locationId), eq(syncSessions.scheduledFor, input.scheduledFor)));
      if (scheduled) return { started: false, reason: "already_scheduled", sessionId: scheduled.id };
    }
  }
  // Twice the open session ended between our insert and our look-up: a clear answer to ask again, not a 500.
  throw new DomainError("CONFLICT", "Another session of this location was starting and ending meanwhile: try again.");
}

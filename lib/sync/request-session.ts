import { and, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import { locations, syncSessions, type ConfirmedRemovals } from "@/db/schema";
import { DomainError } from "@/lib/errors/domain-error";
import { sendJob } from "@/lib/jobs/job-sender";
import { optionalStepNames, type OptionalStepName } from "./step-names";
import { syncSessionJob } from "./sync-session-job";

export type SyncTrigger = "schedule" | "manual" | "resume" | "cli";

export interface RequestSessionInput {
  locationId: string;
  trigger: SyncTrigger;
  requestedByEmail: string | null;
  full?: boolean;
  optionalSteps?: OptionalStepName[];
  /** YYYY-MM-DD, the location's local date of a scheduled run. */
  scheduledFor?: string;
  resumesSessionId?: string;
  /** Removals a person confirmed after the safety valve stopped an earlier session (lib/sync/confirm-removals.ts). */
  confirmedRemovals?: ConfirmedRemovals;
}

export type RequestSessionResult =
  { started: true; sessionId: string } | { started: false; reason: "already_open" | "already_scheduled" | "not_connected"; sessionId: string | null };

/**
 * Queues a sync session and its pg-boss job. The database decides between racing
 * requests: one queued-or-running session per location, one scheduled run per local date.
 */
export async function requestSyncSession(db: Database, input: RequestSessionInput): Promise<RequestSessionResult> {
  const [location] = await db.select().from(locations).where(eq(locations.id, input.locationId));
  if (!location) throw new DomainError("NOT_FOUND", "Location not found.");
  if (!location.locationTokenEncrypted || !location.upstreamLocationId) return { started: false, reason: "not_connected", sessionId: null };
  const chosen = input.optionalSteps ?? [...optionalStepNames];
  // Twice: the open session may finish between our insert and our look-up.
  for (let attempt = 0; attempt < 2; attempt++) {
    const [created] = await db
      .insert(syncSessions)
      .values({
        locationId: location.id,
        environment: location.environment,
        trigger: input.trigger,
        requestedByEmail: input.requestedByEmail,
        // A location whose data changed source (fullSyncReason) is sent whole until a full session succeeds.
        full: (input.full ?? false) || location.fullSyncReason !== null,
        optionalSteps: optionalStepNames.filter((name) => chosen.includes(name)),
        scheduledFor: input.scheduledFor ?? null,
        resumesSessionId: input.resumesSessionId ?? null,
        confirmedRemovals: input.confirmedRemovals ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: syncSessions.id });
    if (created) {
      await sendJob(syncSessionJob, { sessionId: created.id });
      return { started: true, sessionId: created.id };
    }
    const [open] = await db
      .select({ id: syncSessions.id })
      .from(syncSessions)
      .where(and(eq(syncSessions.locationId, location.id), inArray(syncSessions.status, ["queued", "running"])))
      .orderBy(desc(syncSessions.createdAt))
      .limit(1);
    if (open) return { started: false, reason: "already_open", sessionId: open.id };
    if (input.scheduledFor) {
      const [scheduled] = await db
        .select({ id: syncSessions.id })
        .from(syncSessions)
        .where(and(eq(syncSessions.locationId, location.id), eq(syncSessions.scheduledFor, input.scheduledFor)));
      if (scheduled) return { started: false, reason: "already_scheduled", sessionId: scheduled.id };
    }
  }
  throw new Error("could not start or find a sync session");
}

import { queryRows } from "@/db/raw-sql";
import { eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import type { OperationContext } from "@/lib/operations/context";
import { locations, syncSessions, type SourceState } from "@/db/schema";
import { createEnvironmentClient } from "@/lib/environments/environment-client";
import { getEnvironmentCredentials } from "@/lib/environments/get-environment-credentials";
import { markReconnectNeeded, openLocationToken, TokenOriginChangedError, TokenUnreadableError } from "@/lib/locations/location-token";
import { readerStoppedBy, type SourceReader, type SourceSnapshot } from "@/lib/source/source-reader";
import type { UpstreamClient, UpstreamClientOptions } from "@/lib/upstream/client";
import { describeErrorForLog } from "@/lib/logging/safe-error";
import { createAttemptRecorder } from "./attempt-recorder";
import { describeSyncError } from "./describe-sync-error";
import { checkRemovals, RemovalStopError } from "./removal-guard";
import { runStep, StepFailedError } from "./run-step";
import { claimSession, LeaseLostError, SessionCancelledError, stopOr, type SessionFence } from "./session-fence";
import { finishStopped, finishSucceeded } from "./session-outcome";
import { ensureSessionPreview } from "./session-preview";
import { anyStepStarted, ensureStepRows, isPending } from "./session-steps";
import { lateScheduledStart } from "./schedule/late-start";
import { stepsByName } from "./steps/all-steps";
import { decideStreamed, primeUnsentTargets, requestFirstPreview, requireSourceKey, streamedSource } from "./stream/streamed-session";
import { carriedSkippedCounts, decideQuiet, quietStepsOf } from "./quiet/quiet-session";
import { forgetSourceState, observeSourceState } from "./quiet/source-state";
import { sourceReaderFromEnvironment } from "@/lib/source/sql-source-reader";
import { closeStreamedReads, streamedStepsByName } from "./stream/stream-steps";
import { anythingAccepted, heldContactKeys, heldKeys } from "@/lib/sync/synced-records/lookups";
import { replayStepsOf } from "./replay/replay-steps";
import { checkStreamedRemovals } from "./stream/streamed-removals";
import type { StepContext } from "./steps/sync-step";
import { syncConfigFromEnvironment, type SyncConfig } from "./sync-config";
import { countSkippedByType } from "./skipped-records";
import { settleUnsyncedKeys, unsyncedKeysKnown } from "./unsynced-keys";
import { planCatalogueRecheck } from "./plan/catalogue-recheck";

export interface RunSessionOptions {
  /** Defaults to the SQL reader of SOURCE_DATABASE_URL (or the app's demo schema). */
  reader?: SourceReader;
  /** Overrides of the upstream client (tests: retryRuntime without waits). */
  client?: Partial<UpstreamClientOptions>;
  config?: Partial<SyncConfig>;
  /** Worker identity written as lease_owner. */
  owner?: string;
  now?: Date;
}

export type RunSessionResult = "succeeded" | "failed" | "cancelled" | "lost" | "finished";

/**
 * Records the upstream location this session talks to and takes the open upstream session over from an earlier failed
 * or cancelled session of the location at that same upstream location: no re-opening. One left open at another (a
 * session from before a move) is not this upstream location's, which expects its own "open".
 */
async function inheritUpstreamSession(
  fence: SessionFence,
  { locationId, environment, upstreamLocationId }: { locationId: string; environment: string; upstreamLocationId: string },
): Promise<boolean> {
  return fence.write(async (tx) => {
    await tx.execute(sql`update sync_sessions set upstream_location_id = ${upstreamLocationId} where id = ${fence.sessionId}`);
    const inherited = await tx.execute(sql`update sync_sessions set upstream_open = false
      where location_id = ${locationId} and id <> ${fence.sessionId} and upstream_open
        and environment = ${environment} and upstream_location_id = ${upstreamLocationId} returning id`);
    if (inherited.length) await tx.execute(sql`update sync_sessions set upstream_open = true where id = ${fence.sessionId}`);
    const [mine] = await queryRows<{ upstream_open: boolean }>(tx, sql`select upstream_open from sync_sessions where id = ${fence.sessionId}`);
    return Boolean(mine?.upstream_open);
  });
}

async function runClaimed(db: Database, fence: SessionFence, config: SyncConfig, options: RunSessionOptions): Promise<RunSessionResult> {
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, fence.sessionId));
  const [location] = session ? await db.select().from(locations).where(eq(locations.id, session.locationId)) : [];
  if (!session || !location) return "finished";
  let client: UpstreamClient | undefined;
  let closeReader: (() => Promise<void>) | undefined;
  let snapshot: SourceSnapshot | null = null;
  let context: StepContext | undefined;
  try {
    const resumed = session.resumesSessionId
      ? (await db.select().from(syncSessions).where(eq(syncSessions.id, session.resumesSessionId)))[0]
      : undefined;
    if (!location.upstreamLocationId) throw new Error("This location is not connected to an upstream location.");
    // A scheduled session picked up too late does not start (one that already sent something finishes).
    if (session.trigger === "schedule" && !(await anyStepStarted(db, session.id))) {
      const late = lateScheduledStart(session, location.timeZone, options.now ?? new Date());
      if (late) {
        await finishStopped(fence, { locationId: location.id, status: "cancelled", step: null, reason: late, keepAttention: true });
        return "cancelled";
      }
    }
    // First: a running session shows its steps (pending) while it reads the source or computes its preview.
    const steps = await ensureStepRows(db, fence, {
      optionalSteps: session.optionalSteps,
      automotive: location.automotive,
      resumed: resumed ? { sessionId: resumed.id, failedStep: resumed.currentStep } : null,
      replayed: session.replay?.steps ?? null,
    });
    const credentials = await getEnvironmentCredentials(db, session.environment);
    // Before anything is sent: a token goes only to the origin that issued it.
    const call = { accessToken: openLocationToken(location, credentials), locationId: location.upstreamLocationId };
    const ownReader = options.reader ?? sourceReaderFromEnvironment();
    if (!options.reader) closeReader = () => ownReader.close();
    const reader = readerStoppedBy(ownReader, fence.stopped);
    const now = options.now ?? session.startedAt ?? new Date();
    // Observed once, before the first read: the quiet decision, a streamed session and a preview run share it.
    let observed: Promise<SourceState> | undefined;
    // Records are mapped with the environment's date-time form: a change of it is a change of every record's mapping.
    const mapped = { ...location, dateTimeStyle: credentials.dateTimeStyle };
    const observe = () => (observed ??= observeSourceState(reader, { ...mapped, sourceKey: requireSourceKey(location) }, now));
    const quietBase = session.replay ? null : await decideQuiet(db, fence, { session, location, observe });
    const streamed = quietBase !== null || (await decideStreamed(db, fence, { session, resumedStreamed: resumed?.streamed ?? false, observe }));
    const firstSync = streamed && !quietBase && !(await anythingAccepted(db, location.id));
    const carriedSkipped = quietBase ? await carriedSkippedCounts(db, quietBase) : undefined;
    // A streamed session reads its steps and months one after another: all of them see one moment of the source, so a
    // row that moves meanwhile (an appointment to another month) is sent once, never in neither import.
    snapshot =
      streamed && reader.snapshot
        ? await reader.snapshot().catch((error: unknown) => {
            console.warn(`[sync] no snapshot of the source (${describeErrorForLog(error)}): each read sees it as it is then`);
            return null;
          })
        : null;
    const source = streamed ? streamedSource(mapped, { reader: snapshot?.reader ?? reader, now, carriedSkipped }) : null;
    const preview = source
      ? { runId: null, readAt: source.now, storeEpoch: null }
      : await ensureSessionPreview(db, fence, {
          locationId: location.id,
          requestedByEmail: session.requestedByEmail,
          ownRunId: session.previewRunId,
          reader,
          now: options.now,
          observed: observed ? await observed : undefined,
          // A resume sends only from its failed step on: it is no base for a quiet session.
          keepsSourceState: !session.resumesSessionId,
          leaseSeconds: config.leaseSeconds,
        });
    const upstreamOpen = await inheritUpstreamSession(fence, {
      locationId: location.id,
      environment: session.environment,
      upstreamLocationId: call.locationId,
    });
    const recorder = createAttemptRecorder(fence);
    // The preview already checked every record against the same upstream schemas (lib/mapping); a second check per record cost ~10 µs each.
    client = createEnvironmentClient(credentials, {
      validateRecords: false,
      baseDelayMs: config.requestBackoffMs,
      ...options.client,
      signal: fence.signal,
      onAttempt: recorder.record,
    });
    context = {
      db,
      fence,
      client,
      call,
      runId: preview.runId,
      previewEpoch: preview.storeEpoch,
      stream: source?.records ?? null,
      firstSync,
      location: { id: location.id, timeZone: location.timeZone, automotive: location.automotive },
      full: session.full,
      unsyncedOnly: !source && !session.full && (await unsyncedKeysKnown(db, location.id)),
      skippedCounts: source ? null : countSkippedByType(db, location.id),
      resend: session.replay !== null,
      catalogueRecheck: preview.storeEpoch ? await planCatalogueRecheck(db, { locationId: location.id, steps, epoch: preview.storeEpoch }) : null,
      managementSystem: credentials.dataSourceName,
      now: preview.readAt,
      config,
    };
    // What a quiet session or a replay sends names the contacts the upstream holds (a replay without the contacts step
    // must not name one the upstream does not have yet); other types are read through the checks.
    const contactsHeld = quietBase !== null || (session.replay !== null && !session.replay.steps.includes("contact_details"));
    const catalogueLacking = source
      ? await primeUnsentTargets(source.records, steps, (type) => heldKeys(db, location.id, type), contactsHeld ? ["contact_details"] : [])
      : context.catalogueRecheck !== null;
    // Records were sent without what they name of the source's catalogue: no later session may take them as sent whole.
    if (catalogueLacking) await forgetSourceState(fence);
    if (source && session.replay && contactsHeld) source.records.useHeld("contact_details", await heldContactKeys(db, location.id));
    const definitions = session.replay
      ? replayStepsOf(session.replay)
      : quietBase
        ? quietStepsOf(quietBase)
        : source
          ? streamedStepsByName
          : stepsByName;
    // The valve, before anything is sent. A quiet session removes nothing (nothing changed in the source); a streamed
    // one is checked against what the upstream holds, so a first sync (it holds nothing) reads nothing for it.
    if (!source) await checkRemovals(context, steps, session.confirmedRemovals);
    else if (!quietBase) await checkStreamedRemovals(context, steps, definitions, session.confirmedRemovals);
    // A streamed session's large reads each open with source queries over the whole window (~1 s each at a million
    // appointments): they run while the steps before them stream.
    if (source && definitions === streamedStepsByName)
      source.records.prefetch(steps.filter(isPending).flatMap((step) => definitions[step.name].recordType ?? []));
    for (const step of steps) {
      if (!isPending(step)) continue;
      if (step.name === "open" && upstreamOpen) {
        await fence.write((tx) =>
          tx.execute(
            sql`update sync_steps set status = 'skipped', error = 'The upstream session was still open.', finished_at = now() where id = ${step.id}`,
          ),
        );
        continue;
      }
      await runStep(context, recorder, step, definitions[step.name]);
    }
    await fence.write((tx) => settleUnsyncedKeys(tx, fence.sessionId, { rechecked: context!.catalogueRecheck !== null }));
    await finishSucceeded(fence, location.id);
    // What the next session builds on, computed in the background: a streamed session stored no preview.
    if (source && !quietBase && !session.replay) await requestFirstPreview(db, location.id);
    return "succeeded";
  } catch (thrown) {
    const error = stopOr(fence, thrown);
    if (error instanceof LeaseLostError || fence.isLost) return "lost";
    const [current] = await db.select({ step: syncSessions.currentStep }).from(syncSessions).where(eq(syncSessions.id, fence.sessionId));
    const step = current?.step ?? null;
    if (error instanceof SessionCancelledError) {
      await finishStopped(fence, { locationId: location.id, status: "cancelled", step, reason: error.message });
      return "cancelled";
    }
    if (error instanceof RemovalStopError) {
      await finishStopped(fence, { locationId: location.id, status: "failed", step: null, reason: error.message, removalStop: error.stop });
      return "failed";
    }
    const reason = error instanceof StepFailedError ? error.reason : describeSyncError(error);
    await finishStopped(fence, { locationId: location.id, status: "failed", step, reason });
    // Resuming cannot help here: the location shows what can.
    if (error instanceof TokenOriginChangedError || error instanceof TokenUnreadableError) await markReconnectNeeded(db, location.id, error);
    return "failed";
  } finally {
    await client?.close();
    if (context?.stream) await closeStreamedReads(context);
    await snapshot?.release();
    await closeReader?.();
  }
}

/**
 * Runs (or takes over) one sync session: claims it with a fresh fencing token, computes
 * the preview it sends from, then runs the steps in protocol order, persisting each step,
 * item and HTTP attempt. Returns how it ended for this worker ("lost": another took over).
 */
export async function runSession(ctx: OperationContext, input: { sessionId: string } & RunSessionOptions): Promise<RunSessionResult> {
  const { db } = ctx;
  const { sessionId, ...options } = input;
  const config = { ...syncConfigFromEnvironment(), ...options.config };
  const fence = await claimSession(db, sessionId, { owner: options.owner, leaseSeconds: config.leaseSeconds });
  if (!fence) return "finished";
  fence.startRenewal();
  try {
    return await runClaimed(db, fence, config, options).catch((error: unknown) => {
      if (error instanceof LeaseLostError) return "lost" as const;
      throw error;
    });
  } finally {
    fence.stopRenewal();
  }
}

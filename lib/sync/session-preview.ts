import { systemContext } from "@/lib/operations/context";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { previewRuns, type SourceState } from "@/db/schema";
import { sourceStateOfRun } from "./quiet/source-state";
import { computePreview } from "@/lib/preview/compute-preview";
import { openPreviewStore, previewStoreLostMessage } from "@/lib/preview/preview-store";
import { failStoppedPreviewRuns, leaseFromNow } from "@/lib/preview/preview-run-lease";
import { DomainError } from "@/lib/errors/domain-error";
import type { SourceReader } from "@/lib/source/source-reader";
import type { SessionFence } from "./session-fence";

const WAIT_FOR_ACTIVE_RUN_MS = 10 * 60 * 1000;

export interface SessionPreview {
  runId: string;
  /** When the preview read the source. */
  readAt: Date;
  /** What the run knew of the source. */
  sourceState: SourceState | null;
  /** The epoch of the preview's tables the run's records are in (lib/preview/preview-store.ts): read only while it is current. */
  storeEpoch: string;
}

const sessionPreviewOf = (run: typeof previewRuns.$inferSelect): SessionPreview => ({
  runId: run.id,
  readAt: run.startedAt ?? run.createdAt,
  sourceState: sourceStateOfRun(run),
  storeEpoch: run.storeEpoch!,
});

/**
 * The session's own run, for a takeover. Once a crash emptied its records (lib/preview/preview-store.ts) the session
 * fails: its plan, stored as it was made, and what it already sent came from them, and a fresh run would not match them.
 */
async function succeededRun(db: Database, runId: string | null): Promise<SessionPreview | null> {
  if (!runId) return null;
  const [run] = await db.select().from(previewRuns).where(eq(previewRuns.id, runId));
  if (!run) return null;
  if (run.status !== "succeeded" || !run.storeEpoch || run.storeEpoch !== (await openPreviewStore(db)))
    throw new DomainError("CONFLICT", previewStoreLostMessage);
  return sessionPreviewOf(run);
}

/**
 * Brings the location's preview records up to date before a session sends from them: a run of its own
 * (incremental after the first), or, for a takeover, the run it already made (no other run can change the
 * records while the session is running: lib/preview/compute-preview.ts refuses to).
 */
export async function ensureSessionPreview(
  db: Database,
  fence: SessionFence,
  input: {
    locationId: string;
    requestedByEmail: string | null;
    ownRunId: string | null;
    reader?: SourceReader;
    now?: Date;
    /** What the session already observed of the source (lib/sync/quiet): the run need not ask again. */
    observed?: SourceState;
    /** The session keeps what the run knew of the source (the next session compares with it: lib/sync/quiet). */
    keepsSourceState: boolean;
    /** The lease of the session's own run (lib/preview/preview-run-lease.ts): the session's. */
    leaseSeconds: number;
  },
): Promise<SessionPreview> {
  const preview = (await succeededRun(db, input.ownRunId)) ?? (await computeFreshPreview(db, fence, input));
  if (preview.runId !== input.ownRunId) {
    const state = input.keepsSourceState && preview.sourceState ? JSON.stringify(preview.sourceState) : null;
    await fence.write((tx) =>
      tx.execute(sql`update sync_sessions set preview_run_id = ${preview.runId}, source_state = ${state}::jsonb where id = ${fence.sessionId}`),
    );
  }
  return preview;
}

async function computeFreshPreview(
  db: Database,
  fence: SessionFence,
  input: { locationId: string; requestedByEmail: string | null; reader?: SourceReader; now?: Date; observed?: SourceState; leaseSeconds: number },
): Promise<SessionPreview> {
  const deadline = Date.now() + WAIT_FOR_ACTIVE_RUN_MS;
  // One preview run per location at a time: a run someone else computes is waited for, then ours starts; one whose
  // process stopped (its lease expired) is failed, and ours starts at once.
  for (;;) {
    await fence.checkpoint();
    const [created] = await db
      .insert(previewRuns)
      .values({ locationId: input.locationId, requestedByEmail: input.requestedByEmail, leaseExpiresAt: leaseFromNow(input.leaseSeconds) })
      .onConflictDoNothing()
      .returning();
    if (created) {
      await computePreview(systemContext(db), {
        runId: created.id,
        reader: input.reader,
        now: input.now,
        sessionId: fence.sessionId,
        checkpoint: () => fence.checkpoint(),
        observed: input.observed,
        leaseSeconds: input.leaseSeconds,
      });
      const [done] = await db.select().from(previewRuns).where(eq(previewRuns.id, created.id));
      if (done?.status !== "succeeded") throw new Error(`The preview of the source failed: ${done?.error ?? "unknown error"}`);
      return sessionPreviewOf(done);
    }
    if ((await failStoppedPreviewRuns(db, input.locationId)) > 0) continue;
    if (Date.now() > deadline) throw new Error("A preview run of this location did not finish in time.");
    const active = await db
      .select({ id: previewRuns.id })
      .from(previewRuns)
      .where(and(eq(previewRuns.locationId, input.locationId), inArray(previewRuns.status, ["queued", "running"])));
    if (active.length) await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

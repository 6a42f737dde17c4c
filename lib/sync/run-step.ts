import { queryRows } from "@/db/raw-sql";
import { sql, type SQL } from "drizzle-orm";
import { computeBackoffDelay } from "@/lib/upstream/retry";
import type { AttemptRecorder } from "./attempt-recorder";
import { describeSyncError, isRetryableStepError } from "./describe-sync-error";
import { isSessionStop, LeaseLostError, stopOr, type FencedTransaction } from "./session-fence";
import type { StepRow } from "./session-steps";
import type { SkippedCounts } from "./skipped-records";
import type { SentItem, StepContext, SyncStep } from "./steps/sync-step";
import { assertPreviewStore } from "@/lib/preview/preview-store";

/** The step failed for good (after the engine's attempts): the session fails with it. */
export class StepFailedError extends Error {
  constructor(
    readonly step: string,
    readonly reason: string,
  ) {
    super(`${step}: ${reason}`);
    this.name = "StepFailedError";
  }
}

interface ItemRow {
  id: string;
  key: string;
  status: string;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

async function updateStepTotals(tx: FencedTransaction, stepId: string): Promise<void> {
  // Items recorded at the same time: the row lock orders them, and the sums, read after it (READ COMMITTED: a fresh
  // snapshot per statement), see every item committed before; the last to commit writes the totals of all.
  await tx.execute(sql`select 1 from sync_steps where id = ${stepId} for update`);
  await tx.execute(sql`update sync_steps set
      records_sent = (select coalesce(sum(records_sent), 0) from sync_step_items where step_id = ${stepId}),
      bytes = (select coalesce(sum(bytes), 0) from sync_step_items where step_id = ${stepId})
    where id = ${stepId}`);
}

/** The step's items, planned once and stored (the removal guard plans them before the session sends anything). */
export async function plannedItemsOf(context: StepContext, step: StepRow, definition: SyncStep): Promise<ItemRow[]> {
  const load = () => queryRows<ItemRow>(context.db, sql`select id, key, status from sync_step_items where step_id = ${step.id} order by position`);
  const existing = await load();
  if (existing.length || !definition.planItems) return existing;
  // Planned once and stored: a takeover or a resume sends the same items, skipping those already accepted.
  const keys = await definition.planItems(context);
  // A plan read from preview records a crash emptied meanwhile would send nothing, or unsubscribe every customer.
  if (context.previewEpoch) await assertPreviewStore(context.db, context.previewEpoch);
  await context.fence.write(async (tx) => {
    for (const [position, key] of keys.entries()) {
      await tx.execute(
        sql`insert into sync_step_items (step_id, key, position) values (${step.id}, ${key}, ${position}) on conflict (step_id, key) do nothing`,
      );
    }
  });
  return load();
}

/**
 * Sends one item and returns the write that records it, which runs while the next item streams: PostgreSQL records one
 * import's accepted keys as the next goes out. The item before (`previous`, when items go in order) is always recorded
 * (or has failed) before this one is recorded or marked failed, so items are recorded in order.
 */
async function sendItem(
  context: StepContext,
  recorder: AttemptRecorder,
  step: StepRow,
  definition: SyncStep,
  item: ItemRow,
  previous: Promise<void>,
): Promise<{ recording: Promise<void> }> {
  const { fence } = context;
  try {
    await fence.checkpoint();
    await fence.write((tx) =>
      tx.execute(
        sql`update sync_step_items set status = 'running', attempts = attempts + 1, error = null, started_at = now(), finished_at = null where id = ${item.id}`,
      ),
    );
  } catch (error) {
    await previous;
    throw error;
  }
  let sent: SentItem;
  try {
    sent = await recorder.attribute(step.id, item.id, () => definition.send(context, item.key));
    await recorder.flush();
  } catch (thrown) {
    // The item before failing to record is what stopped the session: it happened first.
    await previous;
    const error = stopOr(fence, thrown);
    if (isSessionStop(error)) throw error;
    await recorder.flush().catch(() => {});
    await fence.write((tx) =>
      tx.execute(sql`update sync_step_items set status = 'failed', error = ${describeSyncError(error)}, finished_at = now() where id = ${item.id}`),
    );
    throw error;
  }
  const recording = previous.then(() =>
    fence.write(async (tx) => {
      await sent.onAccepted?.(tx);
      await tx.execute(
        sql`update sync_step_items set status = 'succeeded', records_sent = ${sent.records}, records_left_out = ${sent.leftOut ?? 0}, bytes = ${sent.bytes},
              finished_at = now() where id = ${item.id}`,
      );
      await updateStepTotals(tx, step.id);
    }),
  );
  // Awaited by the next item or at the end of the step; until then a failure must not count as unhandled.
  recording.catch(() => {});
  // Wrapped: an async function returning the promise itself would wait for it.
  return { recording };
}

/** The first failure of the step's items, but a stop (lease lost, then cancelled) before any other error. */
function firstFailure(failures: readonly unknown[]): unknown {
  return failures.find((error) => error instanceof LeaseLostError) ?? failures.find(isSessionStop) ?? failures[0];
}

/**
 * Sends the step's items that have not succeeded, at most `concurrency` at a time. One at a time (contacts chunks,
 * appointment ranges), each item is recorded after the one before it. Several at a time (openings, one service
 * each: independent imports whose recordings touch only their own service's keys), each item is recorded as soon
 * as it is accepted. After a failure no further item starts; the items in flight settle (an accepted one is
 * recorded) before the step fails with the first failure.
 */
async function sendItems(context: StepContext, recorder: AttemptRecorder, step: StepRow, definition: SyncStep, concurrency: number): Promise<void> {
  const queue = (await plannedItemsOf(context, step, definition)).filter((item) => item.status !== "succeeded");
  await definition.prepare?.(
    context,
    queue.map((item) => item.key),
  );
  const inOrder = concurrency === 1;
  const failures: unknown[] = [];
  const recordings: Promise<void>[] = [];
  let previous: Promise<void> = Promise.resolve();
  async function sendNext(): Promise<void> {
    while (failures.length === 0) {
      // Taken synchronously, so each slot holds one item from the moment it starts.
      const item = queue.shift();
      if (!item) return;
      try {
        const { recording } = await sendItem(context, recorder, step, definition, item, inOrder ? previous : Promise.resolve());
        previous = recording;
        recordings.push(recording.catch((error: unknown) => void failures.push(error)));
      } catch (error) {
        failures.push(error);
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, sendNext));
  await Promise.all(recordings);
  if (failures.length) throw firstFailure(failures);
}

/**
 * What the step left out of its type: a streamed step counts it as it reads, a step sent from the preview takes it from
 * the count the session started before its first step (lib/sync/skipped-records.ts). Written with the step's success, so
 * no step waits for the count to start.
 */
async function skippedRecordsOf(context: StepContext, definition: SyncStep): Promise<SkippedCounts | null> {
  if (!definition.recordType) return null;
  if (context.stream) return context.stream.skipped(definition.recordType);
  if (!context.skippedCounts) return null;
  return (await context.skippedCounts)[definition.recordType] ?? { invalid: 0, excluded: 0 };
}

/** What the step's items (or its one request: `sent`) left out of what their preview records sent as usable (SentItem.leftOut). */
const leftOutOf = (step: StepRow, sent?: SentItem) =>
  sent ? sql`${sent.leftOut ?? 0}::int` : sql`(select coalesce(sum(records_left_out), 0)::int from sync_step_items where step_id = ${step.id})`;

const skippedColumns = (skipped: SkippedCounts | null, leftOut: SQL) =>
  skipped ? sql`, records_invalid = ${skipped.invalid}::int + ${leftOut}, records_excluded = ${skipped.excluded}` : sql``;

/** The step's columns once it succeeded. */
async function succeededColumns(context: StepContext, definition: SyncStep, step: StepRow, sent?: SentItem) {
  return sql`status = 'succeeded', error = null, finished_at = now()${skippedColumns(await skippedRecordsOf(context, definition), leftOutOf(step, sent))}`;
}

/**
 * What a step that failed for good left out, when it is known whole: a step sent from the preview takes it from the
 * preview's count (a failed count leaves it unsaid); a streamed step had read only part of its records.
 */
async function failedSkippedColumns(context: StepContext, definition: SyncStep, step: StepRow) {
  if (context.stream || !context.skippedCounts) return sql``;
  return skippedColumns(await skippedRecordsOf(context, definition).catch(() => null), leftOutOf(step));
}

async function runOnce(context: StepContext, recorder: AttemptRecorder, step: StepRow, definition: SyncStep): Promise<void> {
  const { fence } = context;
  if (!definition.planItems) {
    await fence.checkpoint();
    const sent = await recorder.attribute(step.id, null, () => definition.send(context, null));
    await recorder.flush();
    const succeeded = await succeededColumns(context, definition, step, sent);
    await fence.write(async (tx) => {
      await sent.onAccepted?.(tx);
      await tx.execute(sql`update sync_steps set ${succeeded}, records_sent = ${sent.records}, bytes = ${sent.bytes} where id = ${step.id}`);
    });
    return;
  }
  const wanted = definition.concurrency?.(context.config) ?? 1;
  await sendItems(context, recorder, step, definition, Number.isInteger(wanted) && wanted > 1 ? wanted : 1);
  const succeeded = await succeededColumns(context, definition, step);
  await fence.write((tx) => tx.execute(sql`update sync_steps set ${succeeded} where id = ${step.id}`));
}

/**
 * Runs one step; the client already retried each request, so a step that still fails
 * is tried again by the engine (SYNC_STEP_ATTEMPTS, with backoff) before it fails the session.
 */
export async function runStep(context: StepContext, recorder: AttemptRecorder, step: StepRow, definition: SyncStep): Promise<void> {
  const { fence, config } = context;
  for (let attempt = 1; ; attempt++) {
    await fence.checkpoint();
    await fence.write(async (tx) => {
      await tx.execute(sql`update sync_steps set status = 'running', attempts = attempts + 1, error = null, started_at = coalesce(started_at, now())
                 where id = ${step.id}`);
      await tx.execute(sql`update sync_sessions set current_step = ${step.name} where id = ${fence.sessionId}`);
    });
    try {
      await runOnce(context, recorder, step, definition);
      return;
    } catch (thrown) {
      const error = stopOr(fence, thrown);
      if (isSessionStop(error)) throw error;
      const reason = describeSyncError(error);
      const final = attempt >= config.stepAttempts || !isRetryableStepError(error);
      const skipped = final ? await failedSkippedColumns(context, definition, step) : sql``;
      await fence.write((tx) =>
        tx.execute(
          sql`update sync_steps set status = ${final ? "failed" : "running"}, error = ${reason}, finished_at = ${final ? new Date().toISOString() : null}${skipped}
              where id = ${step.id}`,
        ),
      );
      if (final) throw new StepFailedError(step.name, reason);
      await sleep(
        computeBackoffDelay(attempt, {
          maxAttempts: config.stepAttempts,
          baseDelayMs: config.stepBackoffMs,
          maxDelayMs: 5 * 60_000,
          maxRetryAfterMs: 0,
        }),
        fence.stopped,
      );
    }
  }
}

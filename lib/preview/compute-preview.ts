import { and, desc, eq, isNotNull, ne, sql } from "drizzle-orm";
import type { Database, DatabaseOrTransaction, DatabaseTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import type { OperationContext } from "@/lib/operations/context";
import { locations, previewRuns } from "@/db/schema";
import { DomainError } from "@/lib/errors/domain-error";
import type { SourceReader, SourceSnapshot } from "@/lib/source/source-reader";
import { sourceReaderFromEnvironment } from "@/lib/source/sql-source-reader";
import { environmentDateTimeStyle } from "@/lib/environments/get-environment-credentials";
import { forgetUnsyncedKeys, startLedgerByComparison } from "@/lib/sync/unsynced-keys";
import { applySourceChanges, isTracked, readSourceAhead, type Since } from "./incremental-read";
import { forgetRecordCounts, setRecordCount } from "./preview-record-counts";
import { countInto, isBucketed, type BucketCounts } from "./record-buckets";
import { deleteRecordsOfType, mapBatch, type RunInput } from "./map-source-rows";
import { createPreviewChecks, type CheckPreviewRow } from "./preview-checks";
import { writePreviewBatch } from "./write-preview-batch";
import { mappingBasisOf } from "./mapping-basis";
import { countPreview } from "./preview-counts";
import { planPreviewReads, type PlannedRead } from "./preview-plan";
import { prepareRecheck, recheckDependents, recheckTargets } from "./recheck-preview";
import { createIncrementalChecks, type IncrementalChecks } from "./incremental-checks";
import { describeErrorForLog } from "@/lib/logging/safe-error";
import { isSessionStop } from "@/lib/sync/session-fence";
import { vacuumAfterBulkWrite } from "@/db/vacuum-after-bulk-write";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import { settleAll } from "@/lib/operations/settle-all";
import type { PreviewCounts } from "@/db/schema";
import { openFirstRunSink, type FirstRunSink } from "./first-run-sink";
import { assertPreviewStore, openPreviewStore } from "./preview-store";
import { claimPreviewRun, defaultPreviewLeaseSeconds, PreviewRunLostError, type PreviewRunLease } from "./preview-run-lease";

export interface ComputePreviewOptions {
  /** Defaults to the SQL reader of SOURCE_DATABASE_URL (or the app's demo schema). */
  reader?: SourceReader;
  now?: Date;
  batchSize?: number;
  /** Changed source ids re-read per query (lib/preview/incremental-read.ts; tests make it small). */
  idsPerReread?: number;
  /** The sync session computing the preview it sends from: its own running state does not block the run. */
  sessionId?: string;
  /**
   * Asked between batches, at most once a second: the session computing the run stops there when it was cancelled or
   * lost its claim (SessionCancelledError, LeaseLostError: the run fails with the reason, and the error leaves
   * computePreview; any other error fails the run as any failure does).
   */
  checkpoint?: () => Promise<void>;
  /** Map every source row, even where only the changed ones would do (as a run asked for with `rebuild` does). */
  full?: boolean;
  /**
   * The source's fingerprint and mapping basis as the session computing this run observed them just before (a
   * session asks once). Taken before this run's clock: a change in between is read again by the next run (its margin).
   */
  observed?: { fingerprint: string; mappingBasis: string };
  /** Rows a full run must have written to vacuum after it (db/vacuum-after-bulk-write.ts BULK_WRITE_ROWS; tests make it small). */
  vacuumThreshold?: number;
  /** How long the run's lease lasts without renewal (lib/preview/preview-run-lease.ts); default SYNC_LEASE_SECONDS. */
  leaseSeconds?: number;
}

const notInSyncUse = sql`not exists (select 1 from sync_sessions s where s.preview_run_id = ${previewRuns.id}
  and (s.status in ('queued', 'running') or (s.status in ('failed', 'cancelled') and s.upstream_open)))`;

type Run = typeof previewRuns.$inferSelect;

/** The run an incremental one builds on: the newest succeeded run that mapped by the same rules, into the preview's tables as they are. */
async function baseRunOf(db: Database, locationId: string, basis: string, epoch: string): Promise<Run | null> {
  const [latest] = await db
    .select()
    .from(previewRuns)
    .where(and(eq(previewRuns.locationId, locationId), eq(previewRuns.status, "succeeded"), isNotNull(previewRuns.mode)))
    .orderBy(desc(previewRuns.createdAt))
    .limit(1);
  return latest?.mappingBasis === basis && latest.sourceReadAt && latest.storeEpoch === epoch ? latest : null;
}

/** A session sending records reads them again to record what was accepted: they must not change under it. */
async function assertNoSessionSending(db: Database, locationId: string, sessionId: string | undefined): Promise<void> {
  const [sending] = await queryRows(
    db,
    sql`
    select 1 from sync_sessions where location_id = ${locationId} and status = 'running' and id <> ${sessionId ?? "00000000-0000-0000-0000-000000000000"} limit 1`,
  );
  if (sending)
    throw new DomainError("CONFLICT", "A sync session is sending this location's records right now; refresh the preview when it has finished.");
}

async function setProgress(db: Database, runId: string, type: string, rows: number, done: boolean) {
  await db
    .update(previewRuns)
    .set({ progress: sql`jsonb_set(${previewRuns.progress}, ${`{${type}}`}::text[], ${JSON.stringify({ rows, done })}::jsonb)` })
    .where(eq(previewRuns.id, runId));
}

/**
 * The rows a read has written so far, as the page shows them: at most once a second. Each update waits for its commit's
 * flush of the WAL, behind which the read's next batch would otherwise wait (500 times in a million-appointment run).
 */
function progressOf(db: Database, runId: string, type: string): (rows: number) => Promise<void> {
  return atMostEverySecond((rows: number) => setProgress(db, runId, type, rows, false));
}

/**
 * Every row of one read mapped afresh, positions from 0. A batch is written while the next is read and mapped: the
 * database's work on the writes (indexes) overlaps the mapping instead of following it. A first run's sink keeps what it
 * stores later (lib/preview/first-run-sink.ts).
 */
async function mapWholeRead(
  writer: DatabaseOrTransaction,
  input: RunInput,
  read: PlannedRead,
  check?: CheckPreviewRow,
  sink?: FirstRunSink,
): Promise<void> {
  let seq = 0;
  const buckets: BucketCounts | null = isBucketed(read.recordType) ? new Map() : null;
  let writing: Promise<void> = Promise.resolve();
  const progress = progressOf(input.db, input.owner.runId, read.recordType);
  const params = { sourceKey: input.sourceKey, windowStart: read.windowStart, windowEnd: read.windowEnd };
  try {
    for await (const batch of input.reader.read(read.resource, params, { batchSize: input.batchSize })) {
      await input.checkpoint?.();
      const mapped = mapBatch(input.owner, read, batch, input.context, () => seq++, check);
      if (buckets) countInto(buckets, read.recordType, mapped.records);
      const { records, issues } = sink ? await sink.take(read, mapped) : mapped;
      await writing;
      const written = seq;
      writing = writePreviewBatch(writer, records, issues).then(() => progress(written));
      // Awaited before the next write or in finally; until then a failure must not count as unhandled.
      writing.catch(() => {});
    }
  } finally {
    await writing.catch(() => {});
  }
  await writing;
  await setRecordCount(writer, input.owner.locationId, read.recordType, seq, buckets);
  await setProgress(input.db, input.owner.runId, read.recordType, seq, true);
}

/** Everything the location's runs wrote, also types no longer read (vehicles of a location that stopped being automotive). */
async function forgetRecords(db: DatabaseOrTransaction, locationId: string): Promise<void> {
  await forgetUnsyncedKeys(db, locationId);
  await forgetRecordCounts(db, locationId);
  await db.execute(sql`delete from preview_issues where location_id = ${locationId}`);
  await db.execute(sql`delete from preview_records where location_id = ${locationId}`);
}

/**
 * Inside a caller's transaction, or (a first run, with its sink) one transaction per record type, so the page can show
 * each as it is done.
 */
async function fullRun(
  db: DatabaseOrTransaction,
  input: RunInput,
  plan: PlannedRead[],
  sink?: { sink: FirstRunSink; lease: PreviewRunLease },
): Promise<void> {
  if (sink) await inTransaction(input.db, input.storeEpoch, sink.lease, (tx) => forgetRecords(tx, input.owner.locationId));
  else await forgetRecords(db, input.owner.locationId);
  const checks = createPreviewChecks(input, plan);
  for (const read of plan) {
    await checks.beforeRead(read);
    if (!sink) await mapWholeRead(db, input, read, checks.check);
    else await inTransaction(input.db, input.storeEpoch, sink.lease, (tx) => mapWholeRead(tx, input, read, checks.check, sink.sink));
  }
}

/**
 * Fresh statistics for what reads the records and their issues next (the ledger's comparison, counts, a session's
 * plan, the next incremental run's deletes by position): they were all just written. With the issues' statistics of
 * an empty table, an incremental run deleted a few thousand records' issues by scanning every issue of the location.
 */
const analyzeRecords = (db: DatabaseOrTransaction) => db.execute(sql`analyze preview_records, preview_issues`);

/** After a full run: in the run's transaction, or (first run) one of its own; `set local` and the comparison's snapshot need one. */
const startLedger = (tx: DatabaseOrTransaction, locationId: string) => phaseClock.time("check", () => startLedgerByComparison(tx, locationId));

/**
 * The preview is derived data: its commits need not wait for the WAL flush. Safe for the run's outcome: the later
 * commit that marks the run succeeded does wait, and it flushes everything written before it.
 */
async function withoutFlushWait(tx: DatabaseTransaction): Promise<void> {
  await tx.execute(sql`set local synchronous_commit = off`);
}

/**
 * Work of a run in a transaction of its own whose commit does not wait for the WAL flush (withoutFlushWait), only while
 * the run's epoch is current: a run that outlived a crash between two of its transactions writes nothing into the
 * tables another run now fills (lib/preview/preview-store.ts). It commits only while the run is still this process's:
 * one failed meanwhile because its lease had expired (lib/preview/preview-run-lease.ts) leaves the records to the next.
 */
function inTransaction<T>(db: Database, epoch: string, lease: PreviewRunLease, work: (tx: DatabaseTransaction) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await withoutFlushWait(tx);
    await assertPreviewStore(tx, epoch);
    const result = await work(tx);
    await lease.assertOwned(tx);
    return result;
  });
}

/** What the other types name: checked again before vehicles, appointments and openings are read (recheckTargets). */
const targetTypes = new Set(["calendars", "service_categories", "services", "contact_details"]);

/** Small types are read whole; customers, vehicles and appointments only where the source changed since the base run. */
async function incrementalRun(tx: DatabaseTransaction, input: RunInput, plan: PlannedRead[], base: Run): Promise<void> {
  const { locationId, runId } = input.owner;
  await phaseClock.time("check", () => prepareRecheck(tx, locationId));
  let checks: IncrementalChecks | undefined;
  const targetsChecked = async () => {
    if (checks) return checks;
    await phaseClock.time("check", () => recheckTargets(tx, locationId, runId));
    return (checks = await createIncrementalChecks(tx, locationId));
  };
  const since: Since = { changedSince: base.sourceReadAt!, appointmentsUntil: base.appointmentsUntil };
  const readsAhead = readSourceAhead(
    input,
    plan.filter((read) => isTracked(read.resource)),
    since,
  );
  try {
    for (const read of plan) {
      // Contacts are checked by recheckTargets; vehicles, appointments and openings as they are mapped.
      const dependent = targetTypes.has(read.recordType) ? undefined : await targetsChecked();
      if (isTracked(read.resource)) {
        const mapped = await applySourceChanges(
          tx,
          input,
          readsAhead.take(read),
          since,
          progressOf(input.db, runId, read.recordType),
          dependent?.replaced,
        );
        await setProgress(input.db, runId, read.recordType, mapped, true);
        continue;
      }
      // The catalogue is checked whole by recheckTargets; what names a calendar or service is re-checked only if its
      // usability flipped.
      await deleteRecordsOfType(tx, locationId, read.recordType);
      await mapWholeRead(tx, input, read, dependent?.wholeRead());
    }
  } finally {
    await readsAhead.close();
  }
  await targetsChecked();
  await phaseClock.time("check", () => recheckDependents(tx, locationId));
}

/**
 * After a full run, once it is shown: the records it wrote, and what a first sync before it accepted, are vacuumed
 * (db/vacuum-after-bulk-write.ts), so that the next sync reads them at the cost of what it looks up. A failure leaves
 * them to autovacuum.
 */
async function vacuumWhatWasWritten(db: Database, locationId: string, threshold: number | undefined): Promise<void> {
  try {
    const [written] = await queryRows<{ rows: number }>(
      db,
      sql`select coalesce(sum(rows), 0)::int as rows from preview_record_counts where location_id = ${locationId}`,
    );
    await vacuumAfterBulkWrite(db, "preview_records", { rowsWritten: written?.rows ?? 0, threshold });
    await vacuumAfterBulkWrite(db, "synced_records", { threshold });
  } catch (error) {
    console.error(`[preview] vacuum after the full run of location ${locationId} failed: ${describeErrorForLog(error)}`);
  }
}

/** Work done at most once a second, calls in between skipped: the caller's checkpoint, a progress update (each is a query). */
function atMostEverySecond<Args extends unknown[]>(work: (...args: Args) => Promise<void>): (...args: Args) => Promise<void> {
  let next = 0;
  return async (...args) => {
    if (Date.now() < next) return;
    next = Date.now() + 1000;
    await work(...args);
  };
}

/**
 * Computes a preview run. The location's records are the result of the runs so far: the first run (and
 * one after a change of mapping rules, source key, zone, country or SQL files, or one asked to rebuild)
 * maps every source row; later runs re-map only the rows changed since the base run and re-check what
 * those changes touch, all in one transaction, so pages and syncs see the previous run's records until
 * this one commits. Diff and counts are SQL. Memory is bounded by a few batches: the one mapped, those being written
 * and the one the reader fetches ahead (an incremental run: a batch of changed rows, and the next resource's read ahead).
 */
export async function computePreview(ctx: OperationContext, input: { runId: string } & ComputePreviewOptions): Promise<void> {
  const { db } = ctx;
  const { runId, ...options } = input;
  // A run finished, or computed by a process alive: nothing to do (a job retried after its worker died takes it over).
  const lease = await claimPreviewRun(db, runId, options.leaseSeconds ?? defaultPreviewLeaseSeconds());
  if (!lease) return;
  lease.startRenewal();
  try {
    await computeClaimedPreview(ctx, lease, options);
  } finally {
    lease.stopRenewal();
  }
}

async function computeClaimedPreview(ctx: OperationContext, lease: PreviewRunLease, options: ComputePreviewOptions): Promise<void> {
  const { db } = ctx;
  const { runId } = lease;
  const [run] = await db.select().from(previewRuns).where(eq(previewRuns.id, runId));
  if (!run) return;
  const [location] = await db.select().from(locations).where(eq(locations.id, run.locationId));
  if (!location) return;
  const ownReader = options.reader ?? sourceReaderFromEnvironment();
  let reader = ownReader;
  let snapshot: SourceSnapshot | null = null;
  // Released as soon as every read is done. A snapshot held on longer holds back PostgreSQL's horizon where the source
  // shares the database (the demo source): the vacuum after the run could then mark none of the pages it wrote
  // all-visible, and the next session's count of skipped records read ~50,000 heap pages instead of the index alone.
  const releaseSnapshot = async () => {
    const held = snapshot;
    snapshot = null;
    await held?.release();
  };
  let firstRun = false;
  /** The epoch of the preview's tables the run began in (lib/preview/preview-store.ts). */
  let startedIn: string | null = null;
  // A first run's sink, which its finally discards (its spool on disk).
  const firstRunOf: { sink?: FirstRunSink } = {};
  const now = options.now ?? new Date();
  try {
    if (!location.sourceKey)
      throw new DomainError(
        "CONFLICT",
        "This location has no source key: support sets it (Edit location) to say which location of the management system it reads.",
      );
    await assertNoSessionSending(db, location.id, options.sessionId);
    // Before the base run is chosen: after a crash, the runs whose records it emptied are retired first.
    const epoch = await openPreviewStore(db);
    startedIn = epoch;
    const plan = planPreviewReads(location, now);
    // Read before any row: a row changed while this run reads is read again by the next one.
    const sourceReadAt = await reader.clock();
    // Every read of the run sees one moment of the source: a customer added between the customers' read and the
    // appointments' is in neither, not an appointment naming a customer the run never saw.
    snapshot = reader.snapshot
      ? await reader.snapshot().catch((error: unknown) => {
          console.warn(`[preview] no snapshot of the source (${describeErrorForLog(error)}): each read sees it as it is then`);
          return null;
        })
      : null;
    reader = snapshot?.reader ?? reader;
    const fingerprint = options.observed?.fingerprint ?? (await reader.fingerprint(location.sourceKey));
    const dateTimeStyle = await environmentDateTimeStyle(db, location.environment);
    const basis = options.observed?.mappingBasis ?? (await mappingBasisOf({ ...location, dateTimeStyle }, reader));
    const base = options.full || run.rebuild ? null : await baseRunOf(db, location.id, basis, epoch);
    const appointmentsUntil = plan.find((read) => read.resource === "appointments")?.windowEnd ?? null;
    const [started] = await db
      .update(previewRuns)
      .set({
        status: "running",
        storeEpoch: epoch,
        startedAt: now,
        sourceFingerprint: fingerprint,
        mode: base ? "incremental" : "full",
        sourceReadAt,
        mappingBasis: basis,
        appointmentsUntil,
        error: null,
        progress: Object.fromEntries(plan.map((read) => [read.recordType, { rows: 0, done: false }])),
      })
      .where(lease.owned)
      .returning({ id: previewRuns.id });
    if (!started) throw new PreviewRunLostError();

    const sessionCheckpoint = options.checkpoint && atMostEverySecond(options.checkpoint);
    const input: RunInput = {
      checkpoint: async () => {
        lease.checkpoint();
        await sessionCheckpoint?.();
      },
      db,
      owner: { locationId: location.id, runId },
      sourceKey: location.sourceKey,
      reader,
      context: { timeZone: location.timeZone, country: location.country, dateTimeStyle, now },
      batchSize: options.batchSize,
      idsPerReread: options.idsPerReread,
      storeEpoch: epoch,
    };
    const [shown] = await queryRows(
      db,
      sql`select 1 from preview_runs where location_id = ${location.id} and status = 'succeeded' and store_epoch = ${epoch} limit 1`,
    );
    firstRun = !shown;
    // A session's run is counted after the session (lib/preview/recount-preview.ts): it needs no counts to send.
    const counted = !options.sessionId;
    const countedAt = new Date();
    let counts: PreviewCounts | null;
    if (firstRun) {
      const types = plan.map((read) => read.recordType);
      // Counted in a transaction of its own: its connection keeps the run's sendable keys until they are compared.
      const streamRun = async (keys: DatabaseTransaction | null) => {
        const sink = await openFirstRunSink(db, location.id, keys ? { tx: keys, types } : null);
        firstRunOf.sink = sink;
        await fullRun(db, input, plan, { sink, lease });
        await releaseSnapshot();
        // On two connections: PostgreSQL compares the keys while it stores the issues and the records not sent.
        const [streamed] = await settleAll([sink.counts(), inTransaction(db, epoch, lease, (tx) => sink.storeIssues(tx, location.id))]);
        return streamed;
      };
      counts = counted ? await db.transaction(streamRun) : await streamRun(null);
      // Counts and issues are complete: the page shows them while the records a sync sends are stored for browsing.
      if (counts) await db.update(previewRuns).set({ counts, countedAt, checkedAt: new Date() }).where(lease.owned);
      await inTransaction(db, epoch, lease, (tx) => firstRunOf.sink!.storeSent(tx, location.id));
      await analyzeRecords(db);
      await inTransaction(db, epoch, lease, (tx) => startLedger(tx, location.id));
    } else {
      await inTransaction(db, epoch, lease, async (tx) => {
        if (base) await incrementalRun(tx, input, plan, base);
        else await fullRun(tx, input, plan).then(() => analyzeRecords(tx).then(() => startLedger(tx, location.id)));
      });
      await releaseSnapshot();
      counts = counted
        ? await countPreview(
            db,
            location.id,
            plan.map((read) => read.recordType),
          )
        : null;
    }
    // Only if nothing it wrote (a first run writes in several transactions) or built on was emptied by a crash since it began.
    await db.transaction(async (tx) => {
      await assertPreviewStore(tx, epoch);
      const [succeeded] = await tx
        .update(previewRuns)
        .set({ status: "succeeded", counts, countedAt: counts ? countedAt : null, finishedAt: new Date() })
        .where(lease.owned)
        .returning({ id: previewRuns.id });
      if (!succeeded) throw new PreviewRunLostError();
    });
    // Older runs are history only (the records are the location's); a run a sync session sends from is kept.
    await db
      .delete(previewRuns)
      .where(
        and(
          eq(previewRuns.locationId, location.id),
          ne(previewRuns.id, runId),
          ne(previewRuns.status, "queued"),
          ne(previewRuns.status, "running"),
          notInSyncUse,
        ),
      );
    if (!base) await vacuumWhatWasWritten(db, location.id, options.vacuumThreshold);
  } catch (error) {
    // A first run that fails keeps nothing of what it stored (the page showed it as provisional).
    if (firstRun && startedIn)
      await inTransaction(db, startedIn, lease, (tx) => forgetRecords(tx, location.id)).catch((failed: unknown) => {
        // A crash emptied them since the run began (the store's epoch moved on), or the run was failed by another
        // process: the location's records may be another run's by now.
        if (failed instanceof DomainError || failed instanceof PreviewRunLostError) return;
        console.error(`[preview] the records of failed run ${runId} could not be removed: ${describeErrorForLog(failed)}`);
      });
    // The session computing the run was cancelled or taken over (its checkpoint said so): the run stops, and so does the session.
    if (isSessionStop(error)) {
      await db
        .update(previewRuns)
        .set({ status: "failed", error: `The sync session computing it stopped: ${(error as Error).message}`, finishedAt: new Date() })
        .where(lease.owned)
        .catch((failed: unknown) => console.error(`[preview] run ${runId} could not be marked stopped: ${describeErrorForLog(failed)}`));
      throw error;
    }
    const message =
      error instanceof DomainError
        ? error.message
        : `The preview could not be computed (${error instanceof Error ? error.name : "error"}). It was logged; try Refresh.`;
    // Failed by another process (lib/preview/preview-run-lease.ts): its reason stays.
    if (error instanceof PreviewRunLostError) return;
    if (!(error instanceof DomainError)) console.error(`[preview] run ${runId} failed: ${describeErrorForLog(error)}`);
    await db.update(previewRuns).set({ status: "failed", error: message, finishedAt: new Date() }).where(lease.owned);
  } finally {
    await releaseSnapshot();
    await firstRunOf.sink?.discard();
    if (!options.reader) await ownReader.close();
  }
}

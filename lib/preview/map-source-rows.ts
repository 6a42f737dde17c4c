import { setImmediate } from "node:timers/promises";
import { sql } from "drizzle-orm";
import type { Database, DatabaseOrTransaction, DatabaseTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import type { SourceReader } from "@/lib/source/source-reader";
import { mapRow } from "@/lib/mapping/map-row";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import type { MappingContext } from "@/lib/mapping/mapping-types";
import type { SourceResource, SourceRowOf } from "@/lib/source/source-rows";
import type { CheckPreviewRow } from "./preview-checks";
import type { CheckReplaced } from "./incremental-checks";
import type { PlannedRead } from "./preview-plan";
import { previewRowsOf, type MappedForPreview, type PreviewIssueRow, type PreviewRecordRow } from "./preview-row";
import { writePreviewBatch } from "./write-preview-batch";
import { isSendable } from "@/lib/pipeline/record-status";
import { countInto, type BucketCounts } from "./record-buckets";
import { isWithinOpeningsHorizon } from "@/lib/sync/plan/local-dates";

export interface RecordOwner {
  locationId: string;
  runId: string;
}

/** What a run reads and maps with. */
export interface RunInput {
  db: Database;
  owner: RecordOwner;
  sourceKey: string;
  reader: SourceReader;
  context: MappingContext;
  batchSize?: number;
  /** Changed source ids re-read per query (default: lib/preview/incremental-read.ts). */
  idsPerReread?: number;
  /** Asked between batches (ComputePreviewOptions.checkpoint): throws when the run must stop. */
  checkpoint?: () => Promise<void>;
  /** The epoch of the preview's tables the run writes in (lib/preview/preview-store.ts): each of its transactions checks it first. */
  storeEpoch: string;
}

/**
 * Maps one batch of source rows into the rows to store; `seqOf` numbers each by its (trimmed) source id. An opening
 * whose start is outside the 72 hours from the context's `now` is left out, as one outside the read window is. `check`
 * (a run that maps every row) checks each record as it is mapped; other runs check in SQL afterwards. `browsable`
 * false: rows that are only sent (previewRowsOf).
 */
export function mapBatch(
  owner: RecordOwner,
  read: PlannedRead,
  rows: readonly SourceRowOf[SourceResource][],
  context: MappingContext,
  seqOf: (sourceId: string) => number,
  check?: CheckPreviewRow,
  browsable = true,
): { records: PreviewRecordRow[]; issues: PreviewIssueRow[] } {
  const started = phaseClock.start();
  const records: PreviewRecordRow[] = [];
  const issues: PreviewIssueRow[] = [];
  for (const row of rows) {
    const mapped = mapRow(read.resource, row as never, context) as MappedForPreview;
    if (mapped.startInstant != null && !isWithinOpeningsHorizon(mapped.startInstant, context.now)) continue;
    const stored = previewRowsOf(owner, read.recordType, seqOf(mapped.sourceId), mapped, browsable);
    records.push(stored.record);
    issues.push(...stored.issues);
  }
  phaseClock.stop("map", started);
  if (check) phaseClock.time("check", () => records.forEach((record) => issues.push(...check(record))));
  return { records, issues };
}

/** Forgets every record (and issue) of one type of the location. */
export async function deleteRecordsOfType(db: DatabaseOrTransaction, locationId: string, type: string): Promise<void> {
  await db.execute(sql`delete from preview_issues where location_id = ${locationId} and record_type = ${type}`);
  await db.execute(sql`delete from preview_records where location_id = ${locationId} and record_type = ${type}`);
}

const ROWS_PER_SLICE = 1_000;

/**
 * mapBatch in slices, numbering the rows by their index, with a turn of the event loop before each: a statement sent
 * just before goes out (postgres.js writes on the next turn) and is worked on while the rows are mapped.
 */
async function mapInSlices(
  owner: RecordOwner,
  read: PlannedRead,
  rows: readonly SourceRowOf[SourceResource][],
  context: MappingContext,
): Promise<{ records: PreviewRecordRow[]; issues: PreviewIssueRow[] }> {
  const records: PreviewRecordRow[] = [];
  const issues: PreviewIssueRow[] = [];
  let index = 0;
  for (let start = 0; start < rows.length; start += ROWS_PER_SLICE) {
    await setImmediate();
    const slice = mapBatch(owner, read, rows.slice(start, start + ROWS_PER_SLICE), context, () => index++);
    records.push(...slice.records);
    issues.push(...slice.issues);
  }
  return { records, issues };
}

/** What replacing some source ids changed: every old and new key, and the keys of usable records it took away. */
export interface ReplacedKeys {
  keys: (string | null)[];
  /** Records taken away and written: what the location's count of the type moved by. */
  removedRows: number;
  writtenRows: number;
  /** Of records an earlier run wrote: a reference to these keys may have stopped (or started) resolving. */
  removedUsableKeys: string[];
}

/**
 * Replaces the records of some source ids by the rows the source has for them now (none: they are gone).
 * A source id keeps its positions; rows beyond what it had before go to the end. `check`: the new records are
 * checked before they are stored (else the run's re-check checks them in SQL). `buckets`: the type's counts per bucket
 * (lib/preview/record-buckets.ts), moved here by what was taken away and written.
 */
export async function replaceSourceIds(
  tx: DatabaseTransaction,
  owner: RecordOwner,
  read: PlannedRead,
  ids: readonly string[],
  rows: readonly SourceRowOf[SourceResource][],
  context: MappingContext,
  nextSeq: { value: number },
  buckets: BucketCounts,
  check?: CheckReplaced,
): Promise<ReplacedKeys> {
  // By key (a contact's, vehicle's or appointment's key is its trimmed source id): the key index finds them. The rows
  // are mapped while PostgreSQL deletes; they are numbered once the freed positions are known.
  const removing = queryRows<{
    seq: number;
    source_id: string;
    record_key: string | null;
    status: string;
    run_id: string;
    ref_contact: string | null;
    local_date: string | null;
  }>(
    tx,
    sql`delete from preview_records where location_id = ${owner.locationId} and record_type = ${read.recordType}
          and (record_key = any(${sql.param(ids)}::text[]) or (record_key is null and source_id = any(${sql.param(ids)}::text[])))
        returning seq, source_id, record_key, status, run_id, ref_contact, local_date::text as local_date`,
  );
  removing.catch(() => {});
  const { records, issues } = await mapInSlices(owner, read, rows, context);
  const removed = await removing;
  if (removed.length) {
    await tx.execute(
      sql`delete from preview_issues where location_id = ${owner.locationId} and record_type = ${read.recordType}
          and seq = any(${sql.param(removed.map((row) => row.seq))}::int[])`,
    );
  }
  const freed = new Map<string, number[]>();
  for (const row of [...removed].sort((first, second) => first.seq - second.seq)) {
    const seqs = freed.get(row.source_id) ?? [];
    seqs.push(row.seq);
    freed.set(row.source_id, seqs);
  }
  // A source id keeps its positions, in row order; mapInSlices numbered the rows by their index.
  const positions = records.map((record) => freed.get(record.source_id)?.shift() ?? nextSeq.value++);
  records.forEach((record, index) => (record.seq = positions[index]!));
  for (const issue of issues) issue.seq = positions[issue.seq]!;
  if (check) {
    // A record that was usable had a usable contact (a missing one is an error): it still has, unless its usability flipped.
    const namedUsable = removed.flatMap((row) => (row.ref_contact !== null && isSendable(row) ? [row.ref_contact] : []));
    issues.push(...(await check(records, new Set(namedUsable))));
  }
  await writePreviewBatch(tx, records, issues);
  countInto(buckets, read.recordType, removed, -1);
  countInto(buckets, read.recordType, records);
  const removedUsableKeys = removed
    .filter((row) => row.record_key !== null && row.run_id !== owner.runId && isSendable(row))
    .map((row) => row.record_key!);
  return {
    keys: [...removed.map((row) => row.record_key), ...records.map((row) => row.record_key)],
    removedRows: removed.length,
    writtenRows: records.length,
    removedUsableKeys,
  };
}

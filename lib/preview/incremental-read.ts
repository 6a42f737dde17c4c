import { sql } from "drizzle-orm";
import type { DatabaseTransaction } from "@/db/client";
import { cursorRows, queryRows } from "@/db/raw-sql";
import { normaliseIdentifier } from "@/lib/mapping/normalisers/identifier";
import { idWhiteSpace } from "@/db/trimmed-id";
import { trackedResources, type SourceIdCount, type TrackedResource } from "@/lib/source/source-reader";
import type { SourceResource, SourceRowOf } from "@/lib/source/source-rows";
import { replaceSourceIds, type RunInput } from "./map-source-rows";
import type { PlannedRead } from "./preview-plan";
import { recordCountOf, recordCountsOf, setRecordCount } from "./preview-record-counts";
import { touchKeys } from "./recheck-preview";
import type { CheckReplaced } from "./incremental-checks";
import type { DateRange } from "@/lib/sync/plan/date-ranges";
import { countSourcePieces, rangesToCompare, windowOfDays, type PieceCounts } from "./deleted-appointment-days";
import { idEndsToCompare } from "./deleted-id-ends";

/** Rows are read again if they changed up to this long before the base run read: a transaction may commit after it began. */
const CHANGE_MARGIN_MS = 10 * 60 * 1000;
/** Source ids re-read per query (one scan of the source table each), unless the run says otherwise. */
const IDS_PER_REREAD = 20_000;
const OUR_IDS_PER_BATCH = 5_000;

export const isTracked = (resource: SourceResource): resource is TrackedResource => (trackedResources as readonly string[]).includes(resource);

export interface Since {
  /** When the base run began reading (the source's clock). */
  changedSince: Date;
  /** The base run's appointment window end (local wall time). */
  appointmentsUntil: string | null;
}

/** Both spellings of a source id: as the source has it, and trimmed as the mapping names (and keys) the record. */
function spellingsOf(raw: string): string[] {
  const trimmed = normaliseIdentifier(raw) ?? "";
  return raw === trimmed ? [raw] : [raw, trimmed];
}

const idsOf = (row: SourceRowOf[SourceResource]) => spellingsOf("id" in row && row.id !== null && row.id !== undefined ? String(row.id) : "");

const byteOrder = (first: string, second: string) => Buffer.compare(Buffer.from(first), Buffer.from(second));

type SourceRow = SourceRowOf[SourceResource];

/**
 * What the source says changed for one tracked resource, read ahead: the window's row count (the deletion check), and
 * the changed ids with their rows when they fit in one re-read (`null` when there are more: the caller reads them in
 * batches itself). Its queries never wait on the caller, so a read started ahead holds no source connection while it
 * waits to be taken.
 */
export interface SourceChanges {
  read: PlannedRead;
  count: Promise<number>;
  changed: Promise<{ ids: string[]; rows: SourceRow[] } | null>;
  /** Appointments: the window's rows by piece, counted ahead once the count is below ours before the run (rows were deleted). */
  pieces: Promise<PieceCounts | null>;
}

const windowOf = (input: RunInput, read: PlannedRead) => ({ sourceKey: input.sourceKey, windowStart: read.windowStart, windowEnd: read.windowEnd });

/** Every id changed since the base run (or that entered or left the appointment window), to `add`. */
async function readChangedIds(
  input: RunInput,
  read: PlannedRead,
  since: Since,
  add: (ids: readonly string[]) => Promise<void> | void,
): Promise<void> {
  const { reader, sourceKey } = input;
  // Changed anywhere, not only inside the window: a row moved out of it is changed too.
  const changedSince = new Date(since.changedSince.getTime() - CHANGE_MARGIN_MS);
  for await (const batch of reader.read(read.resource, { sourceKey }, { batchSize: input.batchSize, filter: { changedSince } })) {
    await input.checkpoint?.();
    for (const row of batch) await add(idsOf(row));
  }
  if (read.resource === "appointments" && since.appointmentsUntil && read.windowEnd && since.appointmentsUntil !== read.windowEnd) {
    const [from, to] = [since.appointmentsUntil, read.windowEnd].sort();
    for await (const batch of reader.read(read.resource, { sourceKey, windowStart: from, windowEnd: to }, { batchSize: input.batchSize })) {
      await input.checkpoint?.();
      for (const row of batch) await add(idsOf(row));
    }
  }
}

async function readRows(input: RunInput, read: PlannedRead, ids: string[]): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for await (const batch of input.reader.read(read.resource, windowOf(input, read), { batchSize: input.batchSize, filter: { ids } }))
    rows.push(...batch);
  return rows;
}

class TooManyChanges extends Error {}

/** Starts reading what changed in one tracked resource; `signal` stops it between batches. */
function startSourceChanges(input: RunInput, read: PlannedRead, since: Since, signal: AbortSignal): SourceChanges {
  // It counts every row of the window, ~0.06–0.09 s at a million appointments. A row deleted after it was counted is
  // found by the next run, whose fingerprint the deletion changed (a session observed the fingerprint before this run began).
  const count = input.reader.count(read.resource, windowOf(input, read));
  const changed = (async () => {
    const ids = new Set<string>();
    try {
      await readChangedIds(input, read, since, (found) => {
        signal.throwIfAborted();
        for (const id of found) ids.add(id);
        if (ids.size > (input.idsPerReread ?? IDS_PER_REREAD)) throw new TooManyChanges();
      });
    } catch (error) {
      if (error instanceof TooManyChanges) return null;
      throw error;
    }
    signal.throwIfAborted();
    const all = [...ids];
    return { ids: all, rows: all.length ? await readRows(input, read, all) : [] };
  })();
  // Fewer rows than the location had before the run: rows were deleted, whatever the changes add, so the counts by
  // piece that find them (rangesToCompare) run beside the changed rows' reading and replacing.
  const pieces =
    read.resource === "appointments"
      ? Promise.all([count, recordCountOf(input.db, input.owner.locationId, read.recordType)]).then(([theirs, before]) =>
          theirs < before && !signal.aborted ? countSourcePieces(input, read) : null,
        )
      : Promise.resolve(null);
  // Awaited by applySourceChanges; a run that fails first must not leave them unhandled.
  count.catch(() => {});
  changed.catch(() => {});
  pieces.catch(() => {});
  return { read, count, changed, pieces };
}

/**
 * The source reads of an incremental run's tracked resources, one resource ahead: once a resource's changed rows are
 * read, the next one's are read on the source's connections while the run's own connection writes this one's records.
 * `take` hands a resource's reads over (and forgets them: the run holds at most the rows it writes and one resource's
 * read ahead); `close` stops what is still reading, between batches, and waits for it: a failed run leaves nothing
 * reading.
 */
export function readSourceAhead(input: RunInput, tracked: readonly PlannedRead[], since: Since) {
  const stop = new AbortController();
  const started = new Map<PlannedRead, SourceChanges>();
  const taken = new Set<PlannedRead>();
  const inFlight = new Set<Promise<unknown>>();
  const start = (read: PlannedRead) => {
    if (stop.signal.aborted || started.has(read) || taken.has(read)) return;
    const changes = startSourceChanges(input, read, since, stop.signal);
    started.set(read, changes);
    const settled = Promise.allSettled([changes.count, changes.changed, changes.pieces]);
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
  };
  return {
    take(read: PlannedRead): SourceChanges {
      start(read);
      const changes = started.get(read)!;
      started.delete(read);
      taken.add(read);
      const next = tracked[tracked.indexOf(read) + 1];
      if (next)
        changes.changed.then(
          () => start(next),
          () => {},
        );
      return changes;
    },
    async close(): Promise<void> {
      stop.abort(new Error("the run ended"));
      await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * Brings the records of one tracked resource up to date with the source: re-maps the source ids whose rows
 * changed since the base run, that entered (or left) the appointment window, or whose rows the source no
 * longer has in the same number. Returns how many source rows were mapped. `check`: checks the new records before
 * they are stored (lib/preview/incremental-checks.ts).
 */
export async function applySourceChanges(
  tx: DatabaseTransaction,
  input: RunInput,
  changes: SourceChanges,
  since: Since,
  onProgress: (mapped: number) => Promise<void>,
  check?: CheckReplaced,
): Promise<number> {
  const { owner } = input;
  const { read } = changes;
  const [last] = await queryRows<{ next: number }>(
    tx,
    sql`select coalesce(max(seq) + 1, 0)::int as next from preview_records where location_id = ${owner.locationId} and record_type = ${read.recordType}`,
  );
  const nextSeq = { value: last?.next ?? 0 };
  // The location's records of the type, in all and per bucket (what the searches for deleted rows below compare with
  // the source's), kept up to date as ids are replaced: deleted source rows show in the counts.
  const kept = await recordCountsOf(tx, owner.locationId, read.recordType);
  let ours = kept.rows;
  const { buckets } = kept;
  let mapped = 0;
  const pending = new Set<string>();

  const replace = async (ids: string[], rows: SourceRow[]) => {
    const replaced = await replaceSourceIds(tx, owner, read, ids, rows, input.context, nextSeq, buckets, check);
    ours += replaced.writtenRows - replaced.removedRows;
    await touchKeys(tx, owner.locationId, read.recordType, replaced);
    mapped += rows.length;
    await onProgress(mapped);
  };
  const flush = async () => {
    if (!pending.size) return;
    const ids = [...pending];
    pending.clear();
    await replace(ids, await readRows(input, read, ids));
  };
  const add = async (ids: readonly string[]) => {
    for (const id of ids) pending.add(id);
    if (pending.size >= (input.idsPerReread ?? IDS_PER_REREAD)) await flush();
  };

  const changed = await changes.changed;
  if (changed) {
    if (changed.ids.length) await replace(changed.ids, changed.rows);
  } else {
    await readChangedIds(input, read, since, add);
    await flush();
  }

  // Deleted rows leave no trace but the count: only when it differs are the ids compared one by one, an appointment's
  // only on the days around those whose counts differ, a customer's or vehicle's (or an appointment's whose days
  // cannot be matched) only among the ids ending alike.
  const theirs = await changes.count;
  if (theirs !== ours) {
    const inAll = { ours, theirs, buckets };
    const ranges = read.resource === "appointments" ? await rangesToCompare(input, read, inAll, changes.pieces) : null;
    const idEnds = ranges ? null : await idEndsToCompare(tx, input, read, inAll);
    if (ranges) for (const range of ranges) await compareIds(input, read, windowOfDays(input, read, range), add, { days: range });
    else await compareIds(input, read, windowOf(input, read), add, idEnds ? { idEnds } : {});
    await flush();
  }
  await setRecordCount(tx, owner.locationId, read.recordType, ours, buckets);
  return mapped;
}

/**
 * Merges the source's (id, rows) with ours, both in byte order, and marks every id that differs for re-reading.
 * Ours are read as last committed (a cursor beside the run's transaction): an id this run already replaced may be
 * marked again, which re-reads it once more and changes nothing. `scope`: only ours of these days (the window names
 * the source's), or only the ids with these ends on both sides (idEndOf).
 */
async function compareIds(
  input: RunInput,
  read: PlannedRead,
  window: { sourceKey: string; windowStart: string | null; windowEnd: string | null },
  add: (ids: readonly string[]) => Promise<void>,
  scope: { days?: DateRange; idEnds?: readonly string[] },
): Promise<void> {
  const { days, idEnds } = scope;
  const onDays = days ? sql` and local_date between ${days.startDate} and ${days.endDate}` : sql``;
  const withEnds = idEnds ? sql` and right(btrim(source_id, ${idWhiteSpace}), 2) = any(${sql.param([...idEnds])}::text[])` : sql``;
  const ours = cursorRows<SourceIdCount>(
    input.db,
    sql`select source_id as id, count(*)::int as rows from preview_records
        where location_id = ${input.owner.locationId} and record_type = ${read.recordType}${onDays}${withEnds}
        group by source_id order by source_id collate "C"`,
    OUR_IDS_PER_BATCH,
  )[Symbol.asyncIterator]();
  let batch: SourceIdCount[] = [];
  let index = 0;
  const nextOurs = async (): Promise<SourceIdCount | undefined> => {
    if (index >= batch.length) {
      const next = await ours.next();
      if (next.done) return undefined;
      batch = next.value;
      index = 0;
    }
    return batch[index++];
  };
  try {
    let mine = await nextOurs();
    for await (const theirsBatch of input.reader.readIds(read.resource, window, { batchSize: input.batchSize, idEnds })) {
      await input.checkpoint?.();
      for (const theirs of theirsBatch) {
        while (mine && byteOrder(mine.id, theirs.id) < 0) {
          await add([mine.id]);
          mine = await nextOurs();
        }
        if (mine && mine.id === theirs.id) {
          if (mine.rows !== theirs.rows) await add(spellingsOf(theirs.id));
          mine = await nextOurs();
        } else {
          // Ours are stored under the trimmed id: " cu8" must also replace the record keyed "cu8".
          await add(spellingsOf(theirs.id));
        }
      }
    }
    for (; mine; mine = await nextOurs()) await add([mine.id]);
  } finally {
    await ours.return?.();
  }
}

import { mapBatch } from "@/lib/preview/map-source-rows";
import { planPreviewReads, type PlannedRead, type PreviewRecordType } from "@/lib/preview/preview-plan";
import type { PreviewRecordRow } from "@/lib/preview/preview-row";
import { isTrackedResource } from "@/lib/preview/preview-checks";
import type { DuplicateTracker } from "@/lib/pipeline/cross-checks";
import { createRowChecks } from "@/lib/pipeline/row-checks";
import { isSendable } from "@/lib/pipeline/record-status";
import { withoutWhiteSpace, type SourceReader } from "@/lib/source/source-reader";
import type { SourceResource, SourceRowOf } from "@/lib/source/source-rows";
import { defaultDateTimeStyle, type DateTimeStyle } from "@/lib/upstream/formats";
import type { MappingContext } from "@/lib/mapping/mapping-types";
import { nextDate } from "../plan/date-ranges";
import { startOfLocalDate } from "../plan/local-dates";
import { guardedRead, sourceFailure } from "./source-failure";

/** Local dates, both included: the appointments of these days. */
export interface DateWindow {
  startDate: string;
  endDate: string;
}

export interface SkippedCounts {
  invalid: number;
  excluded: number;
}

/**
 * A streamed session's records, read from the source, mapped and checked as they come (the same mapping and checks
 * as the preview: lib/mapping, lib/pipeline). Each read is named by a scope (a step, an item): a record may repeat a
 * key only of an earlier record of another scope or earlier in its own read, so reading a scope again (a retried
 * upload, a retried step) changes nothing. Memory: the usable keys of the types others name, the keys the source
 * repeats, and one batch.
 */
export interface SessionRecords {
  /** The checked rows of one type (valid, warning, error, excluded), batch by batch in source order. */
  read(type: PreviewRecordType, scope: string, window?: DateWindow): AsyncGenerator<PreviewRecordRow[]>;
  /** Reads a type through the checks without sending it, so that records read later can name it. */
  prime(type: PreviewRecordType): Promise<void>;
  /** Records of a type left out (errors, excluded by rule), over the latest read of each scope, plus those carried. */
  skipped(type: PreviewRecordType): SkippedCounts;
  /** How many source rows a read of the type returns (0 for a type not read), inside `window` if given. */
  count(type: PreviewRecordType, window?: DateWindow): Promise<number>;
  /** Keys of a type others name that the upstream holds without this session reading them (usable for the checks). */
  useHeld(type: PreviewRecordType, keys: ReadonlySet<string>): void;
  /** The keys of a catalogue type's usable records, read apart: the checks of the session's reads do not learn them. */
  usableKeys(type: PreviewRecordType): Promise<Set<string>>;
  /** The local date of the earliest appointment the source has in the session's window, or null. */
  earliestAppointment(): Promise<string | null>;
  /**
   * Starts, one after another, the source queries that the first reads of these types wait for (which ids the source
   * repeats; for appointments also the earliest), so that they run while earlier steps stream. A query that fails is
   * asked again when its read needs it.
   */
  prefetch(types: readonly PreviewRecordType[]): void;
  /**
   * Starts the source query of a read that comes next (the next month's appointments) and asks for its first batch,
   * so that the read does not wait for it; the batches are mapped and checked only when the read is taken, in order.
   * Holds one source connection, in an open transaction, until the read is taken or the session's reads are closed;
   * started again for the same window, it replaces the one started before.
   */
  readAhead(type: PreviewRecordType, window: DateWindow): void;
  /** Ends the reads started ahead and not taken. */
  close(): Promise<void>;
  /**
   * Forgets what a read of `scope` claimed and left out, as if it had not been read (a look ahead, such as the removal
   * valve's): which copy of a repeated key is sent stays decided by the steps' own order. Usable keys stay known.
   */
  forget(scope: string): void;
}

interface ReadAhead<T> {
  batches(): AsyncGenerator<T>;
  close(): Promise<void>;
}

/** A failure to open the read or to fetch its first batch is the read's: it surfaces when the read is taken. */
function startReadAhead<T>(open: () => AsyncIterable<T>): ReadAhead<T> {
  let iterator: AsyncIterator<T> | undefined;
  const first = (async () => {
    iterator = open()[Symbol.asyncIterator]();
    return iterator.next();
  })();
  first.catch(() => {});
  return {
    async *batches() {
      try {
        for (let next = await first; !next.done; next = await iterator!.next()) yield next.value;
      } finally {
        await iterator?.return?.(undefined);
      }
    },
    async close() {
      await first.catch(() => {});
      await iterator?.return?.(undefined);
    },
  };
}

/** A promise kept for the session, unless it fails: then the next call asks again. */
function remembered<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    if (!pending) {
      const loading = load();
      pending = loading;
      loading.catch(() => {
        if (pending === loading) pending = null;
      });
    }
    return pending;
  };
}

const noRun = "00000000-0000-0000-0000-000000000000";

/** First-come claims of the keys that may repeat, per scope: reading a scope again first forgets what it claimed. */
function scopedClaims(mayRepeat: (type: PreviewRecordType, key: string) => boolean) {
  const claims = new Map<string, { scope: string; sourceId: string }>();
  return {
    forget(scope: string): void {
      for (const [claimed, claim] of claims) if (claim.scope === scope) claims.delete(claimed);
    },
    tracker(scope: string): DuplicateTracker {
      return {
        firstSourceOf(type, key, sourceId) {
          if (!mayRepeat(type, key)) return undefined;
          const claimed = `${type}\u0000${key}`;
          const claim = claims.get(claimed);
          if (!claim) claims.set(claimed, { scope, sourceId });
          return claim?.sourceId;
        },
      };
    },
  };
}

export function createSessionRecords(input: {
  reader: SourceReader;
  /** `dateTimeStyle`: the environment's (default: the spec's form). */
  location: { id: string; sourceKey: string; timeZone: string; country: string; automotive: boolean; dateTimeStyle?: DateTimeStyle };
  now: Date;
  batchSize?: number;
  /** Records left out without being read (a quiet session's: as its base left them out). */
  carriedSkipped?: Partial<Record<PreviewRecordType, SkippedCounts>>;
}): SessionRecords {
  const { reader, location } = input;
  const plan = planPreviewReads(location, input.now);
  const context: MappingContext = {
    timeZone: location.timeZone,
    country: location.country,
    dateTimeStyle: location.dateTimeStyle ?? defaultDateTimeStyle,
    now: input.now,
  };
  const owner = { locationId: location.id, runId: noRun };
  const repeated = new Map<PreviewRecordType, () => Promise<Set<string>>>();
  const repeatedNow = new Map<PreviewRecordType, Set<string>>();
  const claims = scopedClaims((type, key) => repeatedNow.get(type)?.has(withoutWhiteSpace(key)) ?? true);
  const held = new Map<PreviewRecordType, ReadonlySet<string>>();
  const check = createRowChecks(undefined, (type, key) => held.get(type)?.has(key) ?? false);
  const skipped = new Map<PreviewRecordType, Map<string, SkippedCounts>>();

  const readOf = (type: PreviewRecordType) => {
    const read = plan.find((candidate) => candidate.recordType === type);
    if (!read) throw new Error(`${type} are not read for this location`);
    return read;
  };

  /** The large types remember only the keys the source repeats (asked once per session, over the whole window). */
  function repeatedOf(read: PlannedRead): Promise<Set<string>> {
    let load = repeated.get(read.recordType);
    if (!load) {
      load = remembered(() =>
        reader.repeatedIds(read.resource, { sourceKey: location.sourceKey, windowStart: read.windowStart, windowEnd: read.windowEnd }),
      );
      repeated.set(read.recordType, load);
    }
    return load();
  }

  async function loadRepeated(read: PlannedRead): Promise<void> {
    if (isTrackedResource(read.resource)) repeatedNow.set(read.recordType, await repeatedOf(read));
  }

  const earliestStart = remembered(async () => {
    const planned = readOf("appointments");
    return reader.earliestStart("appointments", { sourceKey: location.sourceKey, windowStart: planned.windowStart, windowEnd: planned.windowEnd });
  });

  function windowOf(read: PlannedRead, window: DateWindow | undefined): { windowStart: string | null; windowEnd: string | null } {
    if (!window) return { windowStart: read.windowStart, windowEnd: read.windowEnd };
    const end = startOfLocalDate(nextDate(window.endDate));
    return { windowStart: startOfLocalDate(window.startDate), windowEnd: read.windowEnd !== null && read.windowEnd < end ? read.windowEnd : end };
  }

  const readsAhead = new Map<string, ReadAhead<SourceRowOf[SourceResource][]>>();
  const aheadKey = (type: PreviewRecordType, window: DateWindow | undefined) => `${type} ${window?.startDate ?? ""} ${window?.endDate ?? ""}`;
  const sourceRead = (planned: PlannedRead, window: DateWindow | undefined) =>
    reader.read(planned.resource, { sourceKey: location.sourceKey, ...windowOf(planned, window) }, { batchSize: input.batchSize });

  async function* read(type: PreviewRecordType, scope: string, window?: DateWindow): AsyncGenerator<PreviewRecordRow[]> {
    const planned = readOf(type);
    const ahead = readsAhead.get(aheadKey(type, window));
    readsAhead.delete(aheadKey(type, window));
    try {
      await loadRepeated(planned);
    } catch (error) {
      await ahead?.close();
      throw error;
    }
    claims.forget(scope);
    const tracker = claims.tracker(scope);
    const counts: SkippedCounts = { invalid: 0, excluded: 0 };
    const byScope = skipped.get(type) ?? new Map<string, SkippedCounts>();
    skipped.set(type, byScope);
    byScope.set(scope, counts);
    let seq = 0;
    for await (const batch of ahead?.batches() ?? sourceRead(planned, window)) {
      const { records } = mapBatch(
        owner,
        planned,
        batch,
        context,
        () => seq++,
        (record) => check(record, tracker),
        false,
      );
      for (const record of records) {
        if (record.status === "error") counts.invalid += 1;
        else if (record.status === "excluded") counts.excluded += 1;
      }
      yield records;
    }
  }

  return {
    read,
    async prime(type) {
      if (!plan.some((candidate) => candidate.recordType === type)) return;
      for await (const _batch of guardedRead(read(type, `prime ${type}`), type.replace("_", " "))) void _batch;
    },
    async count(type, window) {
      const planned = plan.find((candidate) => candidate.recordType === type);
      if (!planned) return 0;
      const params = { sourceKey: location.sourceKey, ...windowOf(planned, window) };
      return reader.count(planned.resource, params).catch((error: unknown) => Promise.reject(sourceFailure(error, type.replace("_", " "))));
    },
    async earliestAppointment() {
      const earliest = await earliestStart().catch((error: unknown) => Promise.reject(sourceFailure(error, "appointments")));
      return earliest?.slice(0, 10) ?? null;
    },
    prefetch(types) {
      let queries: Promise<unknown> = Promise.resolve();
      for (const type of types) {
        const planned = plan.find((candidate) => candidate.recordType === type);
        if (!planned || !isTrackedResource(planned.resource)) continue;
        queries = queries
          .then(() => repeatedOf(planned))
          .then(() => (type === "appointments" ? earliestStart() : null))
          .catch(() => {});
      }
    },
    readAhead(type, window) {
      const key = aheadKey(type, window);
      // One started before waited through a retry: its transaction has been idle on the source since.
      void readsAhead.get(key)?.close();
      readsAhead.set(
        key,
        startReadAhead(() => sourceRead(readOf(type), window)),
      );
    },
    async close() {
      const started = [...readsAhead.values()];
      readsAhead.clear();
      await Promise.all(started.map((ahead) => ahead.close().catch(() => {})));
    },
    forget(scope) {
      claims.forget(scope);
      for (const byScope of skipped.values()) byScope.delete(scope);
    },
    useHeld(type, keys) {
      held.set(type, keys);
    },
    async usableKeys(type) {
      const keys = new Set<string>();
      const planned = plan.find((candidate) => candidate.recordType === type);
      if (!planned) return keys;
      const apart = createRowChecks();
      const batches = guardedRead(sourceRead(planned, undefined), type.replace("_", " "));
      let seq = 0;
      for await (const batch of batches) {
        const { records } = mapBatch(
          owner,
          planned,
          batch,
          context,
          () => seq++,
          (record) => apart(record),
          false,
        );
        for (const record of records) if (isSendable(record) && record.record_key !== null) keys.add(record.record_key);
      }
      return keys;
    },
    skipped(type) {
      const total: SkippedCounts = { ...(input.carriedSkipped?.[type] ?? { invalid: 0, excluded: 0 }) };
      for (const counts of skipped.get(type)?.values() ?? []) {
        total.invalid += counts.invalid;
        total.excluded += counts.excluded;
      }
      return total;
    },
  };
}

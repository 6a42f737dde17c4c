import type { SourceResource, SourceRowOf } from "./source-rows";

export interface SourceReadParams {
  /** Which location of the management system (locations.source_key). */
  sourceKey: string;
  /** Local date-times "YYYY-MM-DD HH:MM:SS" bounding the start of appointments / availability: start included, end excluded; null = unbounded. */
  windowStart?: string | null;
  windowEnd?: string | null;
}

/** Resources whose rows carry updated_at: an incremental preview reads only their changed rows. */
export const trackedResources = ["customers", "vehicles", "appointments"] as const satisfies readonly SourceResource[];
export type TrackedResource = (typeof trackedResources)[number];

/**
 * Narrows a read to some rows. changedSince: rows whose updated_at is later, or unknown (null);
 * ids: rows with one of these ids, as given or trimmed ("" also names rows without one). Both: either condition.
 */
export interface SourceRowFilter {
  changedSince?: Date;
  ids?: readonly string[];
}

export interface SourceIdCount {
  id: string;
  rows: number;
}

/** Reads a location's management-system data, each resource in batches, never all at once. */
export interface SourceReader {
  read<R extends SourceResource>(
    resource: R,
    params: SourceReadParams,
    options?: { batchSize?: number; filter?: SourceRowFilter },
  ): AsyncIterable<SourceRowOf[R][]>;
  /** How many rows a read would return. */
  count(resource: SourceResource, params: SourceReadParams): Promise<number>;
  /**
   * The distinct ids a read would return with how many rows carry each, in byte order of the id ("C" collation), in
   * batches. `idEnds`: only the rows whose id ends so (idEndOf).
   */
  readIds(
    resource: SourceResource,
    params: SourceReadParams,
    options?: { batchSize?: number; idEnds?: readonly string[] },
  ): AsyncIterable<SourceIdCount[]>;
  /** How many rows a read would return per end of their id (idEndOf; "" for a row without one), in one query. */
  countByIdEnd(resource: SourceResource, params: SourceReadParams): Promise<Map<string, number>>;
  /**
   * Ids that may name more than one row once trimmed: every id, with all white space taken out, that more than one
   * row carries. A superset of the real repeats (few, usually none), so duplicate checks need not remember every key.
   */
  repeatedIds(resource: SourceResource, params: SourceReadParams): Promise<Set<string>>;
  /**
   * How many rows a read would return per day of their `starts_at`: its first ten characters once the spaces around
   * it are trimmed ("" for a row without one), in one query.
   */
  countByDay(resource: "appointments", params: SourceReadParams): Promise<Map<string, number>>;
  /** The earliest `starts_at` (local wall time) a read would return, or null when it returns none. */
  earliestStart(resource: "appointments" | "availability", params: SourceReadParams): Promise<string | null>;
  /** The source's clock: what its updated_at values are compared with. */
  clock(): Promise<Date>;
  /** Changes when the queries themselves change (an edited SQL file): earlier reads are then no basis for an incremental one. */
  querySignature(): Promise<string>;
  /** Changes whenever any row of this source key changes (count + latest change per resource): the preview's cache key. */
  fingerprint(sourceKey: string): Promise<string>;
  /**
   * The same reader whose reads end when `signal` aborts, with its reason: a statement in flight is cancelled on the
   * source. Readers without one are stopped between batches and calls (`readerStoppedBy`).
   */
  stoppedBy?(signal: AbortSignal): SourceReader;
  /**
   * One consistent view of the source for a session's many reads (its steps, its months): a reader whose every read
   * sees the source as it was when the snapshot was taken, until `release`. Readers without one read the source as it
   * is at each read.
   */
  snapshot?(): Promise<SourceSnapshot>;
  close(): Promise<void>;
}

export interface SourceSnapshot {
  reader: SourceReader;
  /** Ends the transaction that holds the snapshot (its connection closes). */
  release(): Promise<void>;
}

/** `reader`, its reads ending when `signal` aborts (with its reason): the reader's own way, else between batches and calls. */
export function readerStoppedBy(reader: SourceReader, signal: AbortSignal): SourceReader {
  if (reader.stoppedBy) return reader.stoppedBy(signal);
  const checked =
    <A extends unknown[], T>(call: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      signal.throwIfAborted();
      return call(...args);
    };
  async function* batches<T>(read: AsyncIterable<T>): AsyncGenerator<T> {
    signal.throwIfAborted();
    for await (const batch of read) {
      signal.throwIfAborted();
      yield batch;
    }
  }
  // Each call goes to the reader's method as it is then (a test may replace one).
  return {
    read: (resource, params, options) => batches(reader.read(resource, params, options)),
    readIds: (resource, params, options) => batches(reader.readIds(resource, params, options)),
    count: checked((resource, params) => reader.count(resource, params)),
    countByDay: checked((resource, params) => reader.countByDay(resource, params)),
    countByIdEnd: checked((resource, params) => reader.countByIdEnd(resource, params)),
    repeatedIds: checked((resource, params) => reader.repeatedIds(resource, params)),
    earliestStart: checked((resource, params) => reader.earliestStart(resource, params)),
    clock: checked(() => reader.clock()),
    querySignature: checked(() => reader.querySignature()),
    fingerprint: checked((sourceKey) => reader.fingerprint(sourceKey)),
    close: () => reader.close(),
  };
}

/** An id as repeatedIds compares it: without any white space. */
export const withoutWhiteSpace = (id: string) => id.replace(/\s/g, "");

/**
 * The last two characters (code points) of an id once trimmed: what deleted customers and vehicles are looked for by.
 * SQL spells it `right(btrim(id, <idWhiteSpace>), 2)` (on the source `right(<trimmedIdSql>, 2)`: db/trimmed-id.ts).
 */
export const idEndOf = (id: string): string => [...id.trim()].slice(-2).join("");

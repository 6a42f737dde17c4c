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
  /** The distinct ids a read would return with how many rows carry each, in byte order of the id ("C" collation), in batches. */
  readIds(resource: SourceResource, params: SourceReadParams, options?: { batchSize?: number }): AsyncIterable<SourceIdCount[]>;
  /**
   * Ids that may name more than one row once trimmed: every id, with all white space taken out, that more than one
   * row carries. A superset of the real repeats (few, usually none), so duplicate checks need not remember every key.
   */
  repeatedIds(resource: SourceResource, params: SourceReadParams): Promise<Set<string>>;
  /** The earliest `starts_at` (local wall time) a read would return, or null when it returns none. */
  earliestStart(resource: "appointments" | "availability", params: SourceReadParams): Promise<string | null>;
  /** The source's clock: what its updated_at values are compared with. */
  clock(): Promise<Date>;
  /** Changes when the queries themselves change (an edited SQL file): earlier reads are then no basis for an incremental one. */
  querySignature(): Promise<string>;
  /** Changes whenever any row of this source key changes (count + latest change per resource): the preview's cache key. */
  fingerprint(sourceKey: string): Promise<string>;
  close(): Promise<void>;
}

/** An id as repeatedIds compares it: without any white space. */
export const withoutWhiteSpace = (id: string) => id.replace(/\s/g, "");

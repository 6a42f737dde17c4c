import type { SourceResource, SourceRowOf } from "./source-rows";

export interface SourceReadParams {
  /** Which location of the management system (locations.source_key). */
  sourceKey: string;
  /** Local date-times "YYYY-MM-DD HH:MM:SS" bounding the start of appointments / availability: start included, end excluded; null = unbounded. */
  windowStart?: string | null;
  windowEnd?: string | null;
}

/** Reads a location's management-system data, each resource in batches, never all at once. */
export interface SourceReader {
  read<R extends SourceResource>(resource: R, params: SourceReadParams, options?: { batchSize?: number }): AsyncIterable<SourceRowOf[R][]>;
  /** Changes whenever any row of this source key changes (count + latest change per resource): the preview's cache key. */
  fingerprint(sourceKey: string): Promise<string>;
  close(): Promise<void>;
}

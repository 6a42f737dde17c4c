import { rememberFirstSources } from "@/lib/pipeline/cross-checks";
import { createRowChecks, type CheckRow } from "@/lib/pipeline/row-checks";
import { trackedResources, withoutWhiteSpace, type TrackedResource } from "@/lib/source/source-reader";
import type { RunInput } from "./map-source-rows";
import type { PlannedRead, PreviewRecordType } from "./preview-plan";

export type CheckPreviewRow = CheckRow;

/** The checks of a full run: `beforeRead` learns which ids of a large type repeat, before that type is read. */
export interface PreviewChecks {
  check: CheckPreviewRow;
  beforeRead(read: PlannedRead): Promise<void>;
}

export const isTrackedResource = (resource: string): resource is TrackedResource => (trackedResources as readonly string[]).includes(resource);

/**
 * The checks of a run that maps every source row, applied to each row as it is mapped (records arrive in protocol
 * order, so every record a row can name was read before it). Memory: the usable keys of the types others name, and
 * of the large types only the keys the source repeats.
 */
export function createPreviewChecks(input: RunInput): PreviewChecks {
  const repeated = new Map<PreviewRecordType, Set<string>>();
  return {
    check: createRowChecks(rememberFirstSources((type, key) => repeated.get(type)?.has(withoutWhiteSpace(key)) ?? true)),
    // Asked just before each large type is read, not all up front: the first types can be shown sooner.
    async beforeRead(read) {
      if (!isTrackedResource(read.resource) || repeated.has(read.recordType)) return;
      const params = { sourceKey: input.sourceKey, windowStart: read.windowStart, windowEnd: read.windowEnd };
      repeated.set(read.recordType, await input.reader.repeatedIds(read.resource, params));
    },
  };
}

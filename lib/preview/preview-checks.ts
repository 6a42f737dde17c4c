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
export function createPreviewChecks(input: RunInput, plan: readonly PlannedRead[]): PreviewChecks {
  const repeated = new Map<PreviewRecordType, Set<string>>();
  // Which ids repeat is asked of the source for each large type in turn from the start (a grouping of the whole
  // window: ~1 s at a million appointments), so that it runs while the types before it are read and mapped. A
  // failure is the read's: it surfaces when that type is read.
  const answers = new Map<PreviewRecordType, Promise<Set<string>>>();
  let previous: Promise<unknown> = Promise.resolve();
  for (const read of plan) {
    if (!isTrackedResource(read.resource)) continue;
    const params = { sourceKey: input.sourceKey, windowStart: read.windowStart, windowEnd: read.windowEnd };
    const resource = read.resource;
    const answer = previous.then(() => input.reader.repeatedIds(resource, params));
    answer.catch(() => {});
    previous = answer.catch(() => {});
    answers.set(read.recordType, answer);
  }
  return {
    check: createRowChecks(rememberFirstSources((type, key) => repeated.get(type)?.has(withoutWhiteSpace(key)) ?? true)),
    async beforeRead(read) {
      const answer = answers.get(read.recordType);
      if (answer && !repeated.has(read.recordType)) repeated.set(read.recordType, await answer);
    },
  };
}

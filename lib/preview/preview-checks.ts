import { createRowChecks, type CheckRow } from "@/lib/pipeline/row-checks";
import { trackedResources, withoutWhiteSpace, type TrackedResource } from "@/lib/source/source-reader";
import type { RunInput } from "./map-source-rows";
import type { PlannedRead, PreviewRecordType } from "./preview-plan";

export type CheckPreviewRow = CheckRow;

export const isTrackedResource = (resource: string): resource is TrackedResource => (trackedResources as readonly string[]).includes(resource);

/**
 * The checks of a run that maps every source row, applied to each row as it is mapped (records arrive in protocol
 * order, so every record a row can name was read before it). Memory: the usable keys of the types others name, and
 * of the large types only the keys the source repeats.
 */
export async function createPreviewChecks(input: RunInput, plan: readonly PlannedRead[]): Promise<CheckPreviewRow> {
  const repeated = new Map<PreviewRecordType, Set<string>>();
  for (const read of plan) {
    if (!isTrackedResource(read.resource)) continue;
    const params = { sourceKey: input.sourceKey, windowStart: read.windowStart, windowEnd: read.windowEnd };
    repeated.set(read.recordType, await input.reader.repeatedIds(read.resource, params));
  }
  return createRowChecks({ mayRepeat: (type, key) => repeated.get(type)?.has(withoutWhiteSpace(key)) ?? true });
}

import { createRecordChecks } from "@/lib/pipeline/record-checks";
import { trackedResources, withoutWhiteSpace, type TrackedResource } from "@/lib/source/source-reader";
import type { RunInput } from "./map-source-rows";
import type { PlannedRead, PreviewRecordType } from "./preview-plan";
import type { PreviewIssueRow, PreviewRecordRow } from "./preview-row";

/** The types other records name: their usable keys are kept while the run reads what comes after them. */
const targetTypes: readonly PreviewRecordType[] = ["calendars", "service_categories", "services", "contact_details"];

export type CheckPreviewRow = (record: PreviewRecordRow) => PreviewIssueRow[];

const isTracked = (resource: string): resource is TrackedResource => (trackedResources as readonly string[]).includes(resource);

/**
 * The checks of a run that maps every source row, applied to each row as it is mapped (records arrive in protocol
 * order, so every record a row can name was read before it). Memory: the usable keys of the types others name, and
 * of the large types only the keys the source repeats.
 */
export async function createPreviewChecks(input: RunInput, plan: readonly PlannedRead[]): Promise<CheckPreviewRow> {
  const repeated = new Map<PreviewRecordType, Set<string>>();
  for (const read of plan) {
    if (!isTracked(read.resource)) continue;
    const params = { sourceKey: input.sourceKey, windowStart: read.windowStart, windowEnd: read.windowEnd };
    repeated.set(read.recordType, await input.reader.repeatedIds(read.resource, params));
  }
  const usable = new Map(targetTypes.map((type) => [type, new Set<string>()]));
  const checks = createRecordChecks((type, key) => usable.get(type)?.has(key) ?? false, {
    mayRepeat: (type, key) => repeated.get(type)?.has(withoutWhiteSpace(key)) ?? true,
  });
  return (record) => {
    const found = checks.check(record);
    if ((record.status === "valid" || record.status === "warning") && record.record_key !== null) usable.get(record.record_type)?.add(record.record_key);
    return found.map((issue) => ({ location_id: record.location_id, record_type: record.record_type, seq: record.seq, ...issue, cross_check: true }));
  };
}

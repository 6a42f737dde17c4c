import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import type { PreviewIssueRow, PreviewRecordRow } from "@/lib/preview/preview-row";
import { createRecordChecks, type DuplicateTracker, type KeyLookup } from "./cross-checks";
import { isSendable } from "./record-status";

/** The types other records name: their usable keys are kept while later types are read. */
const targetTypes: readonly PreviewRecordType[] = ["calendars", "service_categories", "services", "contact_details"];

/**
 * Checks one mapped row as it comes (lib/pipeline/cross-checks.ts) and returns the issues to store with it;
 * `duplicates` overrides the checks' own tracker for this row's read.
 */
export type CheckRow = (record: PreviewRecordRow, duplicates?: DuplicateTracker) => PreviewIssueRow[];

/**
 * Checks for rows read in protocol order: keeps the usable keys of the types others name (calendars, categories,
 * services, contacts) and asks `duplicates` (default: remember every first source) whether a record repeats a key.
 * `heldUpstream`: targets not read here that the upstream holds (a quiet session's contacts).
 */
export function createRowChecks(duplicates?: DuplicateTracker, heldUpstream?: KeyLookup): CheckRow {
  const usable = new Map(targetTypes.map((type) => [type, new Set<string>()]));
  const checks = createRecordChecks((type, key) => (usable.get(type)?.has(key) ?? false) || (heldUpstream?.(type, key) ?? false), duplicates);
  return (record, duplicates) => {
    const found = checks.check(record, duplicates);
    if (isSendable(record) && record.record_key !== null) usable.get(record.record_type)?.add(record.record_key);
    return found.map((issue) => ({ location_id: record.location_id, record_type: record.record_type, seq: record.seq, ...issue, cross_check: true }));
  };
}

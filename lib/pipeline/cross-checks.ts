import { createHash } from "node:crypto";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { jsonbText } from "./jsonb-text";
import { duplicateOf, missingReason, referenceRules, serviceCalendarsField, type ReferenceRule } from "./reference-rules";
import { isSendable, type RecordStatus } from "./record-status";

/** What the checks read and change of a mapped record (the columns of a preview_records row). */
export interface CheckedRecord {
  record_type: PreviewRecordType;
  source_id: string;
  record_key: string | null;
  status: RecordStatus;
  payload: Record<string, unknown> | null;
  content_hash: string | null;
  ref_contact: string | null;
  ref_service: string | null;
  ref_calendar: string | null;
  ref_category: string | null;
  ref_calendars: string[] | null;
  issue_count: number;
  /** What a dropped reference held, and the hash of the record as mapped: a re-check puts it back. */
  dropped_references: DroppedReferences | null;
  /** The payload's JSON as mapped, where the record carries it (lib/preview/preview-row.ts): stale once a field is dropped. */
  payload_json?: string | null;
}

export type DroppedReferences = {
  fields: Record<string, unknown>;
  hash: string | null;
};

/** An issue found by a check rather than by mapping the row. */
export interface CrossCheckIssue {
  severity: "error" | "warning";
  field: string;
  code: "duplicate_external_id" | "missing_reference" | "dropped_reference";
  reason: string;
  original: string;
}

/** Whether a record of `type` with this key will be there for others to name (sent, or held upstream). */
export type KeyLookup = (type: PreviewRecordType, key: string) => boolean;

const rulesByType = new Map<PreviewRecordType, ReferenceRule[]>();
for (const rule of referenceRules) rulesByType.set(rule.type, [...(rulesByType.get(rule.type) ?? []), rule]);

/**
 * Takes fields out of the payload, remembering what they held: the record is sent without them. The hash of what is
 * sent is derived from the mapped hash and what was taken out (md5 of both, as PostgreSQL's jsonb prints them), so a
 * full and an incremental run agree on it and a re-check can restore the record exactly.
 */
function dropFields(record: CheckedRecord, taken: Record<string, unknown>, payload: Record<string, unknown>): void {
  const hash = record.dropped_references?.hash ?? record.content_hash;
  const fields = { ...record.dropped_references?.fields, ...taken };
  record.status = "warning";
  record.payload = payload;
  if (record.payload_json !== undefined) record.payload_json = null;
  record.dropped_references = { fields, hash };
  record.content_hash = createHash("md5")
    .update(`${hash ?? ""}${jsonbText(fields)}`)
    .digest("hex");
}

function withoutField(payload: Record<string, unknown>, field: string): Record<string, unknown> {
  const { [field]: _removed, ...rest } = payload;
  return rest;
}

/**
 * Which usable record first had a key: the source id of that first record when `key` repeats it, else undefined (and
 * this record is the first from now on).
 */
export interface DuplicateTracker {
  firstSourceOf(type: PreviewRecordType, key: string, sourceId: string): string | undefined;
}

/** Remembers the first source id of every key that `mayRepeat` says can repeat. */
export function rememberFirstSources(mayRepeat: KeyLookup): DuplicateTracker {
  const firstSourceOf = new Map<PreviewRecordType, Map<string, string>>();
  return {
    firstSourceOf(type, key, sourceId) {
      if (!mayRepeat(type, key)) return undefined;
      let seen = firstSourceOf.get(type);
      if (!seen) firstSourceOf.set(type, (seen = new Map()));
      const first = seen.get(key);
      if (first === undefined) seen.set(key, sourceId);
      return first;
    },
  };
}

/**
 * The checks of one run over records streamed in protocol order (calendars, categories, services, contacts,
 * vehicles, appointments, openings): a second record with a key its type already had is an error naming the first
 * (spec 2.1.2); a record naming a missing target is an error or loses that reference (lib/pipeline/reference-rules.ts).
 * `exists` answers whether a target will be there; the caller records each usable key it should know. The duplicate
 * tracker remembers first sources (rememberFirstSources: only of the keys that can repeat, lib/source `repeatedIds`,
 * so memory stays flat); a reader that reads some records more than once passes a tracker per read to check().
 */
export function createRecordChecks(exists: KeyLookup, defaultDuplicates: DuplicateTracker = rememberFirstSources(() => true)) {
  function checkDuplicate(record: CheckedRecord, issues: CrossCheckIssue[], duplicates: DuplicateTracker): void {
    if (!isSendable(record) || record.record_key === null) return;
    const first = duplicates.firstSourceOf(record.record_type, record.record_key, record.source_id);
    if (first === undefined) return;
    const { field, repeats } = duplicateOf(record.record_type);
    record.status = "error";
    issues.push({
      severity: "error",
      field,
      code: "duplicate_external_id",
      reason: `repeats ${repeats} of source row ${first}`,
      original: record.record_key,
    });
  }

  function checkReference(record: CheckedRecord, rule: ReferenceRule, issues: CrossCheckIssue[]): void {
    const target = record[rule.column];
    if (!isSendable(record) || target === null || exists(rule.target, target)) return;
    if (rule.onMissing === "error") {
      record.status = "error";
      issues.push({ severity: "error", field: rule.field, code: "missing_reference", reason: missingReason(rule, target), original: target });
      return;
    }
    if (record.payload?.[rule.field] === undefined) return;
    dropFields(record, { [rule.field]: record.payload[rule.field] }, withoutField(record.payload, rule.field));
    issues.push({ severity: "warning", field: rule.field, code: "dropped_reference", reason: missingReason(rule, target), original: target });
  }

  function dropMissingCalendars(record: CheckedRecord, issues: CrossCheckIssue[]): void {
    const listed = record.payload?.[serviceCalendarsField];
    if (!isSendable(record) || !record.payload || !Array.isArray(listed) || !record.ref_calendars) return;
    const missing = record.ref_calendars.filter((id) => !exists("calendars", id));
    if (!missing.length) return;
    const kept = listed.filter((id) => !(typeof id === "string" && missing.includes(id)));
    dropFields(record, { [serviceCalendarsField]: listed }, { ...record.payload, [serviceCalendarsField]: kept });
    const rule = { targetLabel: "calendar", onMissing: "drop" } as const;
    for (const id of missing)
      issues.push({ severity: "warning", field: serviceCalendarsField, code: "dropped_reference", reason: missingReason(rule, id), original: id });
  }

  return {
    /**
     * Checks one record, changing its status, payload and hash where a check says so; returns what it found.
     * `duplicates`: a tracker of its own for this record's read (default: the one given when created).
     */
    check(record: CheckedRecord, duplicates: DuplicateTracker = defaultDuplicates): CrossCheckIssue[] {
      const issues: CrossCheckIssue[] = [];
      checkDuplicate(record, issues, duplicates);
      for (const rule of rulesByType.get(record.record_type) ?? []) {
        checkReference(record, rule, issues);
        if (rule.column === "ref_category") dropMissingCalendars(record, issues);
      }
      record.issue_count += issues.length;
      return issues;
    },
  };
}

import type { MappedRow, MappingIssue } from "@/lib/mapping/mapping-types";
import type { DroppedReferences } from "@/lib/pipeline/cross-checks";
import { canonicalJson, hashOfJson } from "@/lib/mapping/record-hash";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import { referencesOf } from "@/lib/mapping/references";
import type { PreviewRecordType } from "./preview-plan";
import { isSendable, type RecordStatus } from "@/lib/pipeline/record-status";

export type MappedForPreview = MappedRow<Record<string, unknown>> & {
  localDate?: string | null;
  serviceExternalId?: string | null;
  startInstant?: number | null;
};

/** A preview_records row as written (lib/preview/write-preview-batch.ts). */
export interface PreviewRecordRow {
  location_id: string;
  run_id: string;
  record_type: PreviewRecordType;
  seq: number;
  source_id: string;
  record_key: string | null;
  status: RecordStatus;
  mapped_status: RecordStatus;
  excluded_reason: string | null;
  payload: Record<string, unknown> | null;
  content_hash: string | null;
  local_date: string | null;
  ref_contact: string | null;
  ref_service: string | null;
  ref_calendar: string | null;
  ref_category: string | null;
  ref_calendars: string[] | null;
  search_text: string;
  issue_count: number;
  dropped_references: DroppedReferences | null;
  /** Not a column: the payload's JSON as made for its hash, which an upload sends as it is; null once the checks changed the payload. */
  payload_json: string | null;
}

export interface PreviewIssueRow {
  location_id: string;
  record_type: PreviewRecordType;
  seq: number;
  severity: MappingIssue["severity"];
  field: string;
  code: string;
  reason: string;
  original: string | null;
  /** Found by a check across records (lib/pipeline/cross-checks.ts), not by mapping the row. */
  cross_check: boolean;
}

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

function statusOf(mapped: MappedForPreview): PreviewRecordRow["status"] {
  if (mapped.excludedByRule) return "excluded";
  if (!mapped.record || mapped.issues.some((issue) => issue.severity === "error")) return "error";
  return mapped.issues.length ? "warning" : "valid";
}

/** Types whose external_id is the source row's (trimmed) id. */
const keyedBySourceId: readonly PreviewRecordType[] = ["contact_details", "vehicles", "appointments"];

/**
 * Openings carry no external_id: a slot is named by its service, calendar and start. A contact, vehicle or
 * appointment without a record (excluded, unreadable) is still named by its source id: an incremental run
 * finds the rows of a source id by this key (lib/preview/map-source-rows.ts).
 */
function recordKeyOf(
  type: PreviewRecordType,
  record: Record<string, unknown> | null,
  sourceId: string,
  serviceExternalId: string | null | undefined,
): string | null {
  if (!record) return keyedBySourceId.includes(type) && sourceId !== "" ? sourceId : null;
  if (type === "openings") return `${serviceExternalId ?? ""}|${text(record.calendar_external_id) ?? ""}|${text(record.start_at) ?? ""}`;
  return text(record.external_id) ?? text(record.id);
}

function searchTextOf(sourceId: string, record: Record<string, unknown> | null): string {
  if (!record) return sourceId.toLowerCase();
  const words = [sourceId, record.external_id, record.name, record.first_name, record.last_name, record.email, record.mobile_phone_number];
  return words
    .filter((word): word is string => typeof word === "string" && word !== "")
    .join(" ")
    .toLowerCase();
}

/**
 * The rows to store for one mapped source row. `browsable` false: rows that only go upstream (a streamed session's),
 * which need no search text.
 */
export function previewRowsOf(
  owner: { locationId: string; runId: string },
  type: PreviewRecordType,
  seq: number,
  mapped: MappedForPreview,
  browsable = true,
): { record: PreviewRecordRow; issues: PreviewIssueRow[] } {
  const status = statusOf(mapped);
  const record = isSendable({ status }) ? mapped.record : null;
  const payload = mapped.record;
  // The JSON the hash is made of is what an upload sends (lib/upstream/upload.ts EncodedRecord): the encoding is done here.
  const encoding = phaseClock.start();
  const json = record ? canonicalJson(record) : null;
  phaseClock.stop("encode", encoding);
  // Which fields point where is lib/mapping's knowledge; the preview stores them as columns for its SQL checks.
  const references = payload ? referencesOf(type, payload as never, mapped.serviceExternalId ?? null) : null;
  return {
    record: {
      location_id: owner.locationId,
      run_id: owner.runId,
      record_type: type,
      seq,
      source_id: mapped.sourceId,
      record_key: recordKeyOf(type, payload, mapped.sourceId, mapped.serviceExternalId),
      status,
      mapped_status: status,
      excluded_reason: mapped.excludedByRule,
      payload,
      content_hash: json === null ? null : hashOfJson(json),
      local_date: mapped.localDate ?? null,
      ref_contact: references?.contact ?? null,
      ref_service: references?.service ?? null,
      ref_calendar: references?.calendar ?? null,
      ref_category: references?.category ?? null,
      ref_calendars: type === "services" ? (references?.calendars ?? []) : null,
      search_text: browsable ? searchTextOf(mapped.sourceId, payload) : "",
      issue_count: mapped.issues.length,
      dropped_references: null,
      payload_json: json,
    },
    issues: mapped.issues.map((issue) => ({
      location_id: owner.locationId,
      record_type: type,
      seq,
      severity: issue.severity,
      field: issue.field,
      code: issue.code,
      reason: issue.reason,
      original: issue.original,
      cross_check: false,
    })),
  };
}

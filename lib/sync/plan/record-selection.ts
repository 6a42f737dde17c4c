import { sql } from "drizzle-orm";
import { sendableStatusList } from "@/lib/pipeline/record-status-sql";
import { newOrChanged } from "@/lib/sync/synced-records/compare";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { amongUnsyncedKeys } from "../unsynced-keys";
import { parseRangeKey } from "./date-ranges";

/**
 * Which of the location's preview records one step item sends, as a SQL condition on `preview_records r`.
 * The same condition streams the records and, once the upstream accepted them, writes
 * synced_records: what is recorded as sent is exactly what was sent.
 */
export type RecordSelection =
  | { kind: "all"; recordType: PreviewRecordType }
  | {
      kind: "chunk";
      recordType: PreviewRecordType;
      onlyChanged: boolean;
      firstSeq: number;
      lastSeq: number;
      /** New and changed records are looked for among the location's unsynced keys only (lib/sync/unsynced-keys.ts). */
      unsyncedOnly?: boolean;
    }
  | { kind: "dates"; recordType: "appointments"; startDate: string; endDate: string }
  | { kind: "service"; recordType: "openings"; serviceExternalId: string };

export function selectionCondition(locationId: string, selection: RecordSelection) {
  const base = sql`r.location_id = ${locationId} and r.record_type = ${selection.recordType} and r.status in ${sendableStatusList}`;
  switch (selection.kind) {
    case "all":
      return base;
    case "chunk": {
      const inRange = sql`${base} and r.seq between ${selection.firstSeq} and ${selection.lastSeq}`;
      if (!selection.onlyChanged) return inRange;
      const unsynced = selection.unsyncedOnly ? sql` and ${amongUnsyncedKeys(locationId, selection.recordType, sql`r.record_key`)}` : sql``;
      return sql`${inRange}${unsynced} and ${sql.raw(newOrChanged)}`;
    }
    case "dates":
      return sql`${base} and r.local_date between ${selection.startDate} and ${selection.endDate}`;
    case "service":
      return sql`${base} and r.ref_service = ${selection.serviceExternalId}`;
  }
}

/** Chunk keys: "all seq 0-4999" (every valid record) or "changed seq 0-4999" (new and changed only). */
export function chunkKey(onlyChanged: boolean, firstSeq: number, lastSeq: number): string {
  return `${onlyChanged ? "changed" : "all"} seq ${firstSeq}-${lastSeq}`;
}

export function chunkSelection(recordType: PreviewRecordType, key: string, unsyncedOnly = false): RecordSelection {
  const match = /^(all|changed) seq (\d+)-(\d+)$/.exec(key);
  if (!match) throw new Error(`not a chunk key: ${key}`);
  return { kind: "chunk", recordType, onlyChanged: match[1] === "changed", firstSeq: Number(match[2]), lastSeq: Number(match[3]), unsyncedOnly };
}

export function dateRangeSelection(key: string): RecordSelection {
  return { kind: "dates", recordType: "appointments", ...parseRangeKey(key) };
}

export const serviceKey = (serviceExternalId: string) => `service ${serviceExternalId}`;

export function serviceSelection(key: string): RecordSelection & { kind: "service" } {
  if (!key.startsWith("service ")) throw new Error(`not a service key: ${key}`);
  return { kind: "service", recordType: "openings", serviceExternalId: key.slice("service ".length) };
}

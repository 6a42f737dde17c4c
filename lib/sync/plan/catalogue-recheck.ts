import type { DatabaseOrTransaction } from "@/db/client";
import { createRecordChecks, type CheckedRecord } from "@/lib/pipeline/cross-checks";
import { isSendable } from "@/lib/pipeline/record-status";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { heldKeys } from "@/lib/sync/synced-records/lookups";
import { readSelectedKeys } from "../preview-record-stream";
import type { StepRow } from "../session-steps";

const catalogueTypes: readonly PreviewRecordType[] = ["calendars", "service_categories", "services"];

/** What one item sent differently from its preview records: their hashes as sent, and the keys it left out. */
export class RecheckedItem {
  readonly altered = new Map<string, string>();
  readonly leftOut = new Set<string>();

  constructor(private readonly checks: ReturnType<typeof createRecordChecks>) {}

  /** An upload read again (a retry) starts afresh. */
  reset(): void {
    this.altered.clear();
    this.leftOut.clear();
  }

  /** The payload to send, or null when the record is left out (an opening whose calendar the upstream lacks). */
  send(record: CheckedRecord): Record<string, unknown> | null {
    const mapped = record.content_hash;
    this.checks.check(record);
    if (record.record_key === null) return isSendable(record) ? record.payload : null;
    if (!isSendable(record)) {
      this.leftOut.add(record.record_key);
      return null;
    }
    if (record.content_hash !== mapped && record.content_hash !== null) this.altered.set(record.record_key, record.content_hash);
    return record.payload;
  }
}

export interface CatalogueRecheck {
  item(): RecheckedItem;
}

/**
 * The preview checks what records name against the source's whole catalogue (it describes a full sync). A session
 * sent from it that leaves a catalogue step out sends only what the upstream holds of that type, so a record naming
 * anything else is checked again by the same rules (lib/pipeline/reference-rules.ts: the reference dropped, or the
 * record left out) against what the upstream holds. Null when the upstream holds every one the preview sends.
 */
export async function planCatalogueRecheck(
  db: DatabaseOrTransaction,
  input: { locationId: string; steps: readonly StepRow[]; epoch: string },
): Promise<CatalogueRecheck | null> {
  const held = new Map<PreviewRecordType, Set<string>>();
  for (const type of catalogueTypes) {
    if (input.steps.find((step) => step.name === type)?.status !== "skipped") continue;
    const keys = await heldKeys(db, input.locationId, type);
    const previewKeys = await readSelectedKeys(db, input.locationId, type, input.epoch);
    if (previewKeys.some((key) => !keys.has(key))) held.set(type, keys);
  }
  if (!held.size) return null;
  // Types not re-checked keep the preview's verdict: it sent only what exists.
  const exists = (type: PreviewRecordType, key: string) => held.get(type)?.has(key) ?? true;
  const noDuplicates = { firstSourceOf: () => undefined };
  return { item: () => new RecheckedItem(createRecordChecks(exists, noDuplicates)) };
}

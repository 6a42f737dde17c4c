import type { Database } from "@/db/client";
import type { PreviewCounts } from "@/db/schema";
import { isSendable } from "@/lib/pipeline/record-status";
import { UNSUBSCRIBED_HASH } from "@/lib/sync/synced-records/compare";
import { acceptedHashes, anythingAccepted, countAccepted } from "@/lib/sync/synced-records/lookups";
import { removableTypes } from "@/lib/sync/synced-records/removed-records";
import type { PreviewRecordType } from "./preview-plan";
import type { PreviewRecordRow } from "./preview-row";

/** Look-ups of accepted hashes in flight at once: one runs while the next batch is mapped. */
const LOOKUPS_IN_FLIGHT = 2;

export interface StreamCounts {
  /** Counts a batch of checked records of one type: its statuses now, its diff once its keys are looked up. */
  add(type: PreviewRecordType, records: readonly PreviewRecordRow[]): Promise<void>;
  /** The counts, once every look-up has answered. */
  finish(): Promise<PreviewCounts>;
}

/**
 * The counts of countPreview (lib/preview/preview-counts.ts), made as the records stream instead of read back from
 * preview_records: each batch's sendable keys are looked up in synced_records on the pool's connections while the run
 * goes on (new, changed, unchanged), and what the upstream holds of a type that no sendable record sent again (removed)
 * is what it holds less what the records matched. A run's records have unique sendable keys (the duplicate check), so
 * nothing is matched twice. Memory: the batches whose look-ups are in flight.
 */
export function createStreamCounts(db: Database, locationId: string, types: readonly PreviewRecordType[]): StreamCounts {
  const counts: PreviewCounts = Object.fromEntries(
    types.map((type) => [type, { sourceRows: 0, valid: 0, warnings: 0, errors: 0, excludedByRule: 0, new: 0, changed: 0, unchanged: 0, removed: 0 }]),
  );
  const matched = new Map<PreviewRecordType, number>();
  // Before the first sync the upstream holds nothing: every record is new, and nothing is looked up.
  const anyHeld = anythingAccepted(db, locationId);
  anyHeld.catch(() => {});
  const inFlight: Promise<void>[] = [];

  const compare = (type: PreviewRecordType, records: readonly PreviewRecordRow[], held: ReadonlyMap<string, string>) => {
    const count = counts[type]!;
    let found = 0;
    for (const record of records) {
      const hash = held.get(record.record_key!);
      if (hash !== undefined && !(type === "contact_details" && hash === UNSUBSCRIBED_HASH)) found++;
      if (record.content_hash === null) continue;
      if (hash === undefined) count.new++;
      else if (hash === record.content_hash) count.unchanged++;
      else count.changed++;
    }
    matched.set(type, (matched.get(type) ?? 0) + found);
  };

  return {
    async add(type, records) {
      const count = counts[type]!;
      const sendable: PreviewRecordRow[] = [];
      for (const record of records) {
        count.sourceRows++;
        if (record.status === "error") count.errors++;
        else if (record.status === "excluded") count.excludedByRule++;
        else if (isSendable(record)) {
          count.valid++;
          if (record.status === "warning") count.warnings++;
          if (record.record_key !== null) sendable.push(record);
        }
      }
      if (!sendable.length) return;
      if (!(await anyHeld)) return compare(type, sendable, new Map());
      if (inFlight.length >= LOOKUPS_IN_FLIGHT) await inFlight.shift();
      const lookup = acceptedHashes(
        db,
        locationId,
        type,
        sendable.map((record) => record.record_key!),
      ).then((held) => compare(type, sendable, held));
      lookup.catch(() => {});
      inFlight.push(lookup);
    },
    async finish() {
      for (const lookup of inFlight.splice(0)) await lookup;
      if (!(await anyHeld)) return counts;
      for (const type of types) {
        if (!removableTypes.includes(type)) continue;
        counts[type]!.removed = (await countAccepted(db, locationId, type)) - (matched.get(type) ?? 0);
      }
      return counts;
    },
  };
}

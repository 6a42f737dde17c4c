import { sql } from "drizzle-orm";
import type { Database, DatabaseTransaction } from "@/db/client";
import { copyLines, CopyLines } from "@/db/copy-rows";
import type { PreviewCounts } from "@/db/schema";
import { isSendable } from "@/lib/pipeline/record-status";
import { compareStreamedKeys } from "@/lib/sync/synced-records/compare";
import { anythingAccepted } from "@/lib/sync/synced-records/lookups";
import { removableTypes } from "@/lib/sync/synced-records/removed-records";
import type { PreviewRecordType } from "./preview-plan";
import type { PreviewRecordRow } from "./preview-row";

/** Where a run's sendable keys wait for the comparison: a temporary table of the counting transaction's connection. */
const KEYS_TABLE = "preview_streamed_keys";
const keyColumns = ["record_type", "record_key", "content_hash"];
/** Keys copied at a time; one copy is in flight while the next fills. */
const KEYS_PER_COPY = 10_000;

export interface StreamCounts {
  /** Counts a batch of checked records of one type: its statuses now, its diff in `finish`. */
  add(type: PreviewRecordType, records: readonly PreviewRecordRow[]): Promise<void>;
  finish(): Promise<PreviewCounts>;
}

/**
 * The counts of countPreview (lib/preview/preview-counts.ts), made as the records stream instead of read back from
 * stored records: statuses as each batch comes, and the diff from each sendable record's key and hash, copied into a
 * temporary table of `tx` (no index, no WAL) and compared with synced_records in one join at the end. Removed is what
 * the upstream holds of a type less what the records matched: a run's sendable keys are unique (the duplicate check).
 * Before the first sync the upstream holds nothing: every record is new, and nothing is copied.
 */
export async function createStreamCounts(
  tx: DatabaseTransaction,
  db: Database,
  locationId: string,
  types: readonly PreviewRecordType[],
): Promise<StreamCounts> {
  const counts: PreviewCounts = Object.fromEntries(
    types.map((type) => [type, { sourceRows: 0, valid: 0, warnings: 0, errors: 0, excludedByRule: 0, new: 0, changed: 0, unchanged: 0, removed: 0 }]),
  );
  const anyHeld = await anythingAccepted(db, locationId);
  if (anyHeld)
    await tx.execute(sql`create temporary table ${sql.identifier(KEYS_TABLE)} (record_type text, record_key text, content_hash text) on commit drop`);
  let keys = new CopyLines();
  let copying: Promise<void> = Promise.resolve();
  const copyKeys = async () => {
    await copying;
    const taken = keys;
    keys = new CopyLines();
    copying = copyLines(tx, KEYS_TABLE, keyColumns, taken);
    // Awaited by the next copy or by finish.
    copying.catch(() => {});
  };

  return {
    async add(type, records) {
      const count = counts[type]!;
      for (const record of records) {
        count.sourceRows++;
        if (record.status === "error") count.errors++;
        else if (record.status === "excluded") count.excludedByRule++;
        else if (isSendable(record)) {
          count.valid++;
          if (record.status === "warning") count.warnings++;
          if (record.record_key === null) continue;
          if (anyHeld) keys.add([type, record.record_key, record.content_hash]);
          else if (record.content_hash !== null) count.new++;
        }
      }
      if (keys.count >= KEYS_PER_COPY) await copyKeys();
    },
    async finish() {
      if (!anyHeld) return counts;
      await copyKeys();
      await copying;
      const removable = types.filter((type) => removableTypes.includes(type));
      const compared = await compareStreamedKeys(tx, locationId, KEYS_TABLE, removable);
      for (const type of types) {
        const { new: added = 0, changed = 0, unchanged = 0, removed = 0 } = compared.get(type) ?? {};
        Object.assign(counts[type]!, { new: added, changed, unchanged, removed: removable.includes(type) ? removed : 0 });
      }
      return counts;
    },
  };
}

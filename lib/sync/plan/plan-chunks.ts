import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { chunkKey, selectionCondition } from "./record-selection";

/**
 * Contact details (and vehicles): chunks of `chunkSize` sendable records in source
 * order, each its own import. `onlyChanged`: new and changed records only (later syncs).
 */
export async function planChunks(
  db: DatabaseOrTransaction,
  input: { locationId: string; recordType: PreviewRecordType; onlyChanged: boolean; chunkSize: number; unsyncedOnly: boolean },
): Promise<string[]> {
  const condition = selectionCondition(input.locationId, {
    kind: "chunk",
    recordType: input.recordType,
    onlyChanged: input.onlyChanged,
    firstSeq: 0,
    lastSeq: 2 ** 31 - 1,
    unsyncedOnly: input.unsyncedOnly,
  });
  const chunks = await queryRows<{ first_seq: number; last_seq: number }>(
    db,
    sql`
    select min(seq)::int as first_seq, max(seq)::int as last_seq
    from (select r.seq, (row_number() over (order by r.seq) - 1) / ${input.chunkSize} as chunk from preview_records r where ${condition}) numbered
    group by chunk order by chunk`,
  );
  return chunks.map((chunk) => chunkKey(input.onlyChanged, chunk.first_seq, chunk.last_seq));
}

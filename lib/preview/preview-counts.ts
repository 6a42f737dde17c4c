import { sql } from "drizzle-orm";
import { sendableStatusList } from "@/lib/pipeline/record-status-sql";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import type { PreviewCounts } from "@/db/schema";
import { diffExpression, freshenSyncedStatistics, syncedJoin } from "@/lib/sync/synced-records/compare";
import { countRemovedByType } from "@/lib/sync/synced-records/removed-records";
import type { PreviewRecordType } from "./preview-plan";

export async function countPreview(db: DatabaseOrTransaction, locationId: string, types: readonly PreviewRecordType[]): Promise<PreviewCounts> {
  await freshenSyncedStatistics(db);
  const rows = await queryRows<{
    record_type: string;
    source_rows: number;
    valid: number;
    warnings: number;
    errors: number;
    excluded: number;
    new: number;
    changed: number;
    unchanged: number;
  }>(
    db,
    sql`
    select record_type,
           count(*)::int as source_rows,
           count(*) filter (where status in ${sendableStatusList})::int as valid,
           count(*) filter (where status = 'warning')::int as warnings,
           count(*) filter (where status = 'error')::int as errors,
           count(*) filter (where status = 'excluded')::int as excluded,
           count(*) filter (where status in ${sendableStatusList} and diff = 'new')::int as new,
           count(*) filter (where status in ${sendableStatusList} and diff = 'changed')::int as changed,
           count(*) filter (where status in ${sendableStatusList} and diff = 'unchanged')::int as unchanged
    from (select r.record_type, r.status, ${sql.raw(diffExpression)} as diff from preview_records r ${sql.raw(syncedJoin)}
          where r.location_id = ${locationId}) records
    group by record_type`,
  );
  const removed = await countRemovedByType(db, locationId, types);
  const counts: PreviewCounts = {};
  for (const type of types) {
    const row = rows.find((candidate) => candidate.record_type === type);
    counts[type] = {
      sourceRows: row?.source_rows ?? 0,
      valid: row?.valid ?? 0,
      warnings: row?.warnings ?? 0,
      errors: row?.errors ?? 0,
      excludedByRule: row?.excluded ?? 0,
      new: row?.new ?? 0,
      changed: row?.changed ?? 0,
      unchanged: row?.unchanged ?? 0,
      removed: removed.get(type) ?? 0,
    };
  }
  return counts;
}

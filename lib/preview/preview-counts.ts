import { sql } from "drizzle-orm";
import { sendableStatusList } from "@/lib/pipeline/record-status-sql";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import type { PreviewCounts } from "@/db/schema";
import { diffExpression, notSentAgain, syncedJoin, UNSUBSCRIBED_HASH } from "./live-diff";
import { fullReplacementTypes, type PreviewRecordType } from "./preview-plan";

/**
 * Types whose records a sync can take away upstream: full replacements, and appointments (their dates are replaced);
 * contacts are never deleted, but one no longer in the source is unsubscribed (once: lib/sync/plan/gone-contacts.ts).
 */
export const removableTypes: readonly PreviewRecordType[] = [...fullReplacementTypes, "appointments", "contact_details"];

/**
 * synced_records may just have grown by a million rows (a first sync); autovacuum analyzes it later, and until then
 * the planner takes it for small and joins by index lookups, a hundred times slower than hashing.
 */
async function freshenSyncedStatistics(db: DatabaseOrTransaction): Promise<void> {
  const [stale] = await queryRows(
    db,
    sql`select 1 from pg_stat_user_tables
        where relid = 'synced_records'::regclass and n_mod_since_analyze > 1000 and n_mod_since_analyze > n_live_tup / 10`,
  );
  if (stale) await db.execute(sql`analyze synced_records`);
}

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
  const removable = removableTypes.filter((type) => types.includes(type));
  const removed = await queryRows<{ record_type: string; removed: number }>(
    db,
    sql`
    select s.record_type, count(*)::int as removed
    from synced_records s
    where s.location_id = ${locationId} and s.record_type = any(${sql.param(removable)}::text[])
      and not (s.record_type = 'contact_details' and s.content_hash = ${UNSUBSCRIBED_HASH})
      and ${sql.raw(notSentAgain)}
    group by s.record_type`,
  );
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
      removed: removed.find((candidate) => candidate.record_type === type)?.removed ?? 0,
    };
  }
  return counts;
}

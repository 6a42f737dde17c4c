import type postgres from "postgres";
import type { PreviewCounts } from "@/db/schema";
import { fullReplacementTypes, type PreviewRecordType } from "./preview-plan";

/** Types whose records a sync can take away upstream: full replacements, and appointments (their dates are replaced). */
const removableTypes: readonly PreviewRecordType[] = [...fullReplacementTypes, "appointments"];

export async function countPreview(sql: postgres.Sql, runId: string, locationId: string, types: readonly PreviewRecordType[]): Promise<PreviewCounts> {
  const rows = await sql<{ record_type: string; source_rows: number; valid: number; warnings: number; errors: number; excluded: number; new: number; changed: number; unchanged: number }[]>`
    select record_type,
           count(*)::int as source_rows,
           count(*) filter (where status in ('valid', 'warning'))::int as valid,
           count(*) filter (where status = 'warning')::int as warnings,
           count(*) filter (where status = 'error')::int as errors,
           count(*) filter (where status = 'excluded')::int as excluded,
           count(*) filter (where status in ('valid', 'warning') and diff = 'new')::int as new,
           count(*) filter (where status in ('valid', 'warning') and diff = 'changed')::int as changed,
           count(*) filter (where status in ('valid', 'warning') and diff = 'unchanged')::int as unchanged
    from preview_records where run_id = ${runId} group by record_type`;
  const removed = await sql<{ record_type: string; removed: number }[]>`
    select s.record_type, count(*)::int as removed
    from synced_records s
    where s.location_id = ${locationId} and s.record_type in ${sql(removableTypes.filter((type) => types.includes(type)))}
      and not exists (
        select 1 from preview_records r
        where r.run_id = ${runId} and r.record_type = s.record_type and r.record_key = s.record_key and r.status in ('valid', 'warning'))
    group by s.record_type`;
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

/** new / changed / unchanged for one batch, by one lookup of the batch's keys in what was last synced. */
export async function diffBatch(
  sql: postgres.Sql,
  locationId: string,
  type: PreviewRecordType,
  rows: { record_key: string | null; content_hash: string | null }[],
): Promise<("new" | "changed" | "unchanged" | null)[]> {
  const keys = rows.filter((row) => row.content_hash && row.record_key).map((row) => row.record_key!);
  const synced = keys.length
    ? await sql<{ record_key: string; content_hash: string }[]>`
        select record_key, content_hash from synced_records where location_id = ${locationId} and record_type = ${type} and record_key = any(${keys})`
    : [];
  const hashes = new Map(synced.map((row) => [row.record_key, row.content_hash]));
  return rows.map((row) => {
    if (!row.content_hash || !row.record_key) return null;
    const previous = hashes.get(row.record_key);
    return previous === undefined ? "new" : previous === row.content_hash ? "unchanged" : "changed";
  });
}

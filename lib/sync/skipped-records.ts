import { sql } from "drizzle-orm";
import { skippedStatusList } from "@/lib/pipeline/record-status-sql";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";

export interface SkippedCounts {
  invalid: number;
  excluded: number;
}

/**
 * What the location's preview leaves out of each type (invalid records, records excluded by rule), counted in one pass
 * over the skipped records' index. A session sending from the preview starts it before its first step and each step
 * takes its type's counts: the preview cannot change while the session runs.
 */
export function countSkippedByType(db: DatabaseOrTransaction, locationId: string): Promise<Record<string, SkippedCounts>> {
  const counting = queryRows<{ record_type: string; invalid: number; excluded: number }>(
    db,
    sql`select record_type, count(*) filter (where status = 'error')::int as invalid, count(*) filter (where status = 'excluded')::int as excluded
        from preview_records where location_id = ${locationId} and status in ${skippedStatusList} group by record_type`,
  ).then((rows) => Object.fromEntries(rows.map((row) => [row.record_type, { invalid: row.invalid, excluded: row.excluded }])));
  // Awaited by the first step that shows counts; a session that stops before then must not leave it unhandled.
  counting.catch(() => {});
  return counting;
}

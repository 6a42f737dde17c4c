import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { sendableStatusList } from "@/lib/pipeline/record-status-sql";

// preview_record_counts (db/schema/previews.ts) says how many records the location holds of a type. Each write of the
// records updates it in the same transaction; a full run forgets all of them before it deletes the records, so a count
// is either exact or missing, and a missing one is counted.

export async function forgetRecordCounts(db: DatabaseOrTransaction, locationId: string): Promise<void> {
  await db.execute(sql`delete from preview_record_counts where location_id = ${locationId}`);
}

export async function setRecordCount(db: DatabaseOrTransaction, locationId: string, type: string, rows: number): Promise<void> {
  await db.execute(sql`insert into preview_record_counts (location_id, record_type, rows) values (${locationId}, ${type}, ${rows})
    on conflict (location_id, record_type) do update set rows = excluded.rows`);
}

export async function recordCountOf(db: DatabaseOrTransaction, locationId: string, type: string): Promise<number> {
  const [kept] = await queryRows<{ rows: number }>(
    db,
    sql`select rows from preview_record_counts where location_id = ${locationId} and record_type = ${type}`,
  );
  if (kept) return kept.rows;
  const [counted] = await queryRows<{ rows: number }>(
    db,
    sql`select count(*)::int as rows from preview_records where location_id = ${locationId} and record_type = ${type}`,
  );
  return counted?.rows ?? 0;
}

/** Whether the location's preview sends any record of a type (a status that may be sent). */
export async function sendsAnyOf(db: DatabaseOrTransaction, locationId: string, type: string): Promise<boolean> {
  const [row] = await queryRows<{ any: boolean }>(
    db,
    sql`select exists (select 1 from preview_records where location_id = ${locationId} and record_type = ${type}
                       and status in ${sendableStatusList}) as any`,
  );
  return row?.any ?? false;
}

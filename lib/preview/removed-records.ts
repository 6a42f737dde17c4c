import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { notSentAgain, UNSUBSCRIBED_HASH } from "./live-diff";
import { removableTypes } from "./preview-counts";
import { PREVIEW_PAGE_SIZE } from "./preview-inputs";
import type { PreviewRecordType } from "./preview-plan";

/** A record the upstream holds (synced_records) that the next sync removes, or for contacts unsubscribes. */
export interface RemovedRecord {
  recordKey: string;
  /** When the upstream last accepted it. */
  syncedAt: string;
  /** The source still has a row with this key, but it is not sent (an error or excluded): that record's position and status. */
  inSource: { seq: number; status: string } | null;
}

/**
 * One page of the records of `type` that the upstream holds and the source no longer sends: what the preview counts
 * as removed (lib/preview/preview-counts.ts), by key. Read-only; the sync decides what to do with them.
 */
export async function listRemovedRecords(
  db: DatabaseOrTransaction,
  locationId: string,
  type: PreviewRecordType,
  { page = 0, q }: { page?: number; q?: string } = {},
): Promise<{ items: RemovedRecord[]; total: number }> {
  if (!removableTypes.includes(type)) return { items: [], total: 0 };
  const search = q ? sql`and lower(s.record_key) like ${`%${q.toLowerCase().replace(/[%_\\]/g, "\\$&")}%`}` : sql``;
  const goneWhere = sql`
    where s.location_id = ${locationId} and s.record_type = ${type} ${search}
      and not (s.record_type = 'contact_details' and s.content_hash = ${UNSUBSCRIBED_HASH})
      and ${sql.raw(notSentAgain)}`;
  const [rows, [counted]] = await Promise.all([
    queryRows<{ record_key: string; synced_at: Date | string; seq: number | null; status: string | null }>(
      db,
      sql`select s.record_key, s.synced_at, p.seq, p.status
          from synced_records s
          left join lateral (
            select r.seq, r.status from preview_records r
            where r.location_id = s.location_id and r.record_type = s.record_type and r.record_key = s.record_key
            order by r.seq limit 1) p on true
          ${goneWhere}
          order by s.record_key
          limit ${PREVIEW_PAGE_SIZE} offset ${page * PREVIEW_PAGE_SIZE}`,
    ),
    queryRows<{ total: number }>(db, sql`select count(*)::int as total from synced_records s ${goneWhere}`),
  ]);
  return {
    items: rows.map((row) => ({
      recordKey: row.record_key,
      syncedAt: new Date(row.synced_at).toISOString(),
      inSource: row.seq === null || row.status === null ? null : { seq: row.seq, status: row.status },
    })),
    total: counted?.total ?? 0,
  };
}

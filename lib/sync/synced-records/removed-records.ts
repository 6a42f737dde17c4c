import { sql, type SQL } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { cursorRows, queryRows } from "@/db/raw-sql";
import { PREVIEW_PAGE_SIZE } from "@/lib/preview/preview-inputs";
import { fullReplacementTypes, type PreviewRecordType } from "@/lib/preview/preview-plan";
import type { DateRange } from "@/lib/sync/plan/date-ranges";
import type { FencedTransaction } from "@/lib/sync/session-fence";
import { amongUnsyncedKeys } from "@/lib/sync/unsynced-keys";
import { goneContact, notSentAgain, UNSUBSCRIBED_HASH } from "./compare";
import { previewStoreIntact, withPreviewStoreErrors } from "@/lib/preview/preview-store";

// What the upstream holds (as last accepted) that no sendable preview record sends again: what the preview counts and
// lists as removed, the contacts a sync unsubscribes, and what the removal valve holds back.

/**
 * Types whose records a sync can take away upstream: full replacements, and appointments (their dates are replaced);
 * contacts are never deleted, but one no longer in the source is unsubscribed (once: lib/sync/plan/gone-contacts.ts).
 */
export const removableTypes: readonly PreviewRecordType[] = [...fullReplacementTypes, "appointments", "contact_details"];

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
 * as removed (`countRemovedByType`), by key. Read-only; the sync decides what to do with them.
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

/** Per removable type among `types`: how many records the upstream holds that the source no longer sends. */
export async function countRemovedByType(
  db: DatabaseOrTransaction,
  locationId: string,
  types: readonly PreviewRecordType[],
): Promise<Map<string, number>> {
  const removable = removableTypes.filter((type) => types.includes(type));
  const rows = await queryRows<{ record_type: string; removed: number }>(
    db,
    sql`
    select s.record_type, count(*)::int as removed
    from synced_records s
    where s.location_id = ${locationId} and s.record_type = any(${sql.param(removable)}::text[])
      and not (s.record_type = 'contact_details' and s.content_hash = ${UNSUBSCRIBED_HASH})
      and ${sql.raw(notSentAgain)}
    group by s.record_type`,
  );
  return new Map(rows.map((row) => [row.record_type, row.removed]));
}

/** Condition on `synced_records s`: a contact of the location to unsubscribe (`unsyncedOnly`: looked for among its unsynced keys). */
function goneContactCondition(locationId: string, unsyncedOnly: boolean): SQL {
  const condition = sql`s.location_id = ${locationId} and ${sql.raw(goneContact)}`;
  return unsyncedOnly ? sql`${condition} and ${amongUnsyncedKeys(locationId, "contact_details", sql`s.record_key`)}` : condition;
}

/** How many contacts the upstream holds that the source no longer has as usable records. */
export async function countGoneContacts(db: DatabaseOrTransaction, locationId: string, unsyncedOnly: boolean): Promise<number> {
  // A count, not "limit 1": with none gone (the usual case) a hash anti-join reads both sides once, where a limit
  // makes the planner probe the index for each of the location's contacts.
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from synced_records s where ${goneContactCondition(locationId, unsyncedOnly)}`,
  );
  return row!.count;
}

/** The gone contacts' keys, in key order. */
const goneContactKeysSql = (locationId: string, unsyncedOnly: boolean) =>
  sql`select s.record_key from synced_records s where ${goneContactCondition(locationId, unsyncedOnly)} order by s.record_key`;

/** The first `limit` keys of the gone contacts; all of them with a cursor: `goneContactCursor`. */
export async function goneContactKeys(db: DatabaseOrTransaction, locationId: string, unsyncedOnly: boolean, limit: number): Promise<string[]> {
  const rows = await queryRows<{ record_key: string }>(db, sql`${goneContactKeysSql(locationId, unsyncedOnly)} limit ${limit}`);
  return rows.map((row) => row.record_key);
}

/** `epoch`: the read fails once a crash emptied the preview's tables (lib/preview/preview-store.ts), which would make every customer gone. */
export function goneContactCursor(
  db: DatabaseOrTransaction,
  locationId: string,
  unsyncedOnly: boolean,
  epoch: string,
): AsyncIterable<{ record_key: string }[]> {
  return withPreviewStoreErrors(
    cursorRows<{ record_key: string }>(
      db,
      sql`select * from (${goneContactKeysSql(locationId, unsyncedOnly)}) gone where ${previewStoreIntact(epoch)}`,
      1000,
    ),
  );
}

/** Once the upstream accepted the unsubscribe upload: the same set (the preview cannot change during a session) is recorded as unsubscribed. */
export async function recordUnsubscribed(tx: FencedTransaction, locationId: string, unsyncedOnly: boolean, epoch: string): Promise<void> {
  await tx.execute(
    sql`update synced_records s set content_hash = ${UNSUBSCRIBED_HASH}, synced_at = now()
        where ${previewStoreIntact(epoch)} and ${goneContactCondition(locationId, unsyncedOnly)}`,
  );
}

/** Accepted appointments dated in one of `ranges` that no sendable record sends again: their count, or `limit` keys. */
function removedAppointmentsIn(locationId: string, ranges: readonly DateRange[]): SQL {
  // The ranges as plain conditions: the planner then reads only their dates through synced_records_date_idx (joined to a
  // set-returning function it guessed 100 ranges and read every appointment of the location, ~0.8 s at a million).
  const inRanges = sql.join(
    ranges.map((range) => sql`s.appointment_date between ${range.startDate} and ${range.endDate}`),
    sql` or `,
  );
  return sql`
    from synced_records s
    where s.location_id = ${locationId} and s.record_type = 'appointments' and (${inRanges})
      and ${sql.raw(notSentAgain)}`;
}

export async function countRemovedAppointments(db: DatabaseOrTransaction, locationId: string, ranges: readonly DateRange[]): Promise<number> {
  const [row] = await queryRows<{ count: number }>(db, sql`select count(*)::int as count ${removedAppointmentsIn(locationId, ranges)}`);
  return row!.count;
}

export async function removedAppointmentKeys(
  db: DatabaseOrTransaction,
  locationId: string,
  ranges: readonly DateRange[],
  limit: number,
): Promise<string[]> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`select s.record_key as key ${removedAppointmentsIn(locationId, ranges)} order by s.record_key limit ${limit}`,
  );
  return rows.map((row) => row.key);
}

import { and, asc, desc, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import type { Database, DatabaseOrTransaction } from "@/db/client";
import { previewIssues, previewRecords, previewRuns } from "@/db/schema";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import type { Actor } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import type { OperationContext } from "@/lib/operations/context";
import { diffColumn, synced, syncedOfRecord } from "@/lib/sync/synced-records/compare";
import { PREVIEW_PAGE_SIZE, type PreviewQuery } from "./preview-inputs";
import type { PreviewRecordType } from "./preview-plan";
import { labelsOf, type RecordLabel } from "./record-labels";
import { goneContactKeys, listRemovedRecords } from "@/lib/sync/synced-records/removed-records";
import { rootCauseOriginOf } from "./root-cause-id";
import { rootCauseFilter } from "./root-causes";
import { sendableStatuses } from "@/lib/pipeline/record-status";
import { previewStoreEpoch } from "./preview-store";

export type PreviewRun = typeof previewRuns.$inferSelect;

/**
 * The run to show (newest succeeded, its records still in the preview's tables: lib/preview/preview-store.ts) and the
 * one in flight, if any. Only reads: callers check (readPreviewRuns).
 */
export async function getPreviewRuns(
  db: DatabaseOrTransaction,
  locationId: string,
): Promise<{ shown: PreviewRun | null; active: PreviewRun | null; lastFailed: PreviewRun | null }> {
  const [runs, epoch] = await Promise.all([
    db.select().from(previewRuns).where(eq(previewRuns.locationId, locationId)).orderBy(desc(previewRuns.createdAt)).limit(10),
    previewStoreEpoch(db),
  ]);
  const active = runs.find((run) => run.status === "queued" || run.status === "running") ?? null;
  // Failed runs after it (a source failing at every refresh) may push the shown run out of the newest ten.
  const shown = runs.find((run) => run.status === "succeeded" && run.storeEpoch === epoch) ?? (await newestShownRun(db, locationId, epoch));
  const latest = runs.find((run) => run.status !== "queued" && run.status !== "running");
  // A run retired because a crash emptied its records (an earlier epoch) is no failure to show instead of a new run.
  const failedNow = latest?.status === "failed" && (latest.storeEpoch === null || latest.storeEpoch === epoch);
  return { shown, active, lastFailed: failedNow ? latest : null };
}

async function newestShownRun(db: DatabaseOrTransaction, locationId: string, epoch: string | null): Promise<PreviewRun | null> {
  if (epoch === null) return null;
  const [run] = await db
    .select()
    .from(previewRuns)
    .where(and(eq(previewRuns.locationId, locationId), eq(previewRuns.status, "succeeded"), eq(previewRuns.storeEpoch, epoch)))
    .orderBy(desc(previewRuns.createdAt))
    .limit(1);
  return run ?? null;
}

/** getPreviewRuns for `viewer`, who may see the location's preview ("preview.view"; lib/auth/permissions). */
export async function readPreviewRuns(ctx: OperationContext<Actor>, { locationId }: { locationId: string }): ReturnType<typeof getPreviewRuns> {
  await assertCanAtLocation(ctx.db, ctx.actor, "preview.view", locationId);
  return getPreviewRuns(ctx.db, locationId);
}

/** The run whose records a location shows to `viewer`: the shown one, or a first run's while it reads (provisional). */
export async function getDisplayedPreviewRun(ctx: OperationContext<Actor>, input: { locationId: string }): Promise<PreviewRun> {
  const { shown, active } = await readPreviewRuns(ctx, input);
  if (!shown && !active) throw new DomainError("NOT_FOUND", "No preview has been computed for this location yet.");
  return (shown ?? active)!;
}

/** The preview a location shows to `viewer` ("preview.view"), or NOT_FOUND when none has been computed yet. */
export async function getShownPreviewRun(ctx: OperationContext<Actor>, input: { locationId: string }): Promise<PreviewRun> {
  const { shown } = await readPreviewRuns(ctx, input);
  if (!shown) throw new DomainError("NOT_FOUND", "No preview has been computed for this location yet.");
  return shown;
}

export interface PreviewRecordListItem {
  seq: number;
  sourceId: string;
  recordKey: string | null;
  status: string;
  excludedReason: string | null;
  diff: string | null;
  issueCount: number;
  payload: unknown;
  /** The record in human words (lib/preview/record-labels.ts). */
  label: RecordLabel;
}

function filtersOf(locationId: string, query: PreviewQuery): SQL[] {
  const conditions: SQL[] = [eq(previewRecords.locationId, locationId), eq(previewRecords.recordType, query.type)];
  if (query.q) conditions.push(sql`${previewRecords.searchText} like ${`%${query.q.toLowerCase().replace(/[%_\\]/g, "\\$&")}%`}`);
  if (query.status === "new" || query.status === "changed" || query.status === "unchanged") {
    conditions.push(sql`${diffColumn} = ${query.status}`, inArray(previewRecords.status, [...sendableStatuses]));
  } else if (query.status === "valid") {
    // "Valid" as the page counts it: every record a sync sends, those with warnings among them.
    conditions.push(inArray(previewRecords.status, [...sendableStatuses]));
  } else if (query.status) conditions.push(eq(previewRecords.status, query.status));
  const cause = query.cause ? rootCauseOriginOf(query.cause) : null;
  if (cause) conditions.push(rootCauseFilter(cause, query.type, "preview_records"));
  return conditions;
}

const statusOrder = sql`case ${previewRecords.status} when 'error' then 0 when 'warning' then 1 when 'excluded' then 2 else 3 end`;

/** One page of a location's records of one type. */
export async function listPreviewRecords(
  db: Database,
  locationId: string,
  query: PreviewQuery,
): Promise<{ items: PreviewRecordListItem[]; total: number }> {
  const conditions = filtersOf(locationId, query);
  const order =
    query.sort === "key"
      ? [asc(previewRecords.recordKey), asc(previewRecords.seq)]
      : query.sort === "status"
        ? [statusOrder, asc(previewRecords.seq)]
        : [asc(previewRecords.seq)];
  const rows = await db
    .select({
      seq: previewRecords.seq,
      sourceId: previewRecords.sourceId,
      recordKey: previewRecords.recordKey,
      status: previewRecords.status,
      excludedReason: previewRecords.excludedReason,
      diff: diffColumn,
      issueCount: previewRecords.issueCount,
      payload: previewRecords.payload,
      refContact: previewRecords.refContact,
      refService: previewRecords.refService,
      refCalendar: previewRecords.refCalendar,
    })
    .from(previewRecords)
    .leftJoin(synced, syncedOfRecord)
    .where(and(...conditions))
    .orderBy(...order)
    .limit(PREVIEW_PAGE_SIZE)
    .offset(query.page * PREVIEW_PAGE_SIZE);
  const [counted] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(previewRecords)
    .leftJoin(synced, syncedOfRecord)
    .where(and(...conditions));
  const labels = await labelsOf(db, locationId, query.type, rows);
  const items = rows.map(({ refContact: _contact, refService: _service, refCalendar: _calendar, ...item }, index) => ({
    ...item,
    label: labels[index]!,
  }));
  return { items, total: counted?.total ?? 0 };
}

/** One record with the exact JSON that would be sent and all of its issues. */
export async function getPreviewRecord(db: DatabaseOrTransaction, locationId: string, type: PreviewRecordType, seq: number) {
  const [record] = await db
    .select({ ...getTableColumns(previewRecords), diff: diffColumn })
    .from(previewRecords)
    .leftJoin(synced, syncedOfRecord)
    .where(and(eq(previewRecords.locationId, locationId), eq(previewRecords.recordType, type), eq(previewRecords.seq, seq)));
  if (!record) return null;
  const issues = await db
    .select({
      severity: previewIssues.severity,
      field: previewIssues.field,
      code: previewIssues.code,
      reason: previewIssues.reason,
      original: previewIssues.original,
    })
    .from(previewIssues)
    .where(and(eq(previewIssues.locationId, locationId), eq(previewIssues.recordType, type), eq(previewIssues.seq, seq)));
  return { ...record, issues };
}

/**
 * Contacts the upstream holds that the source no longer has: the next sync unsubscribes them from e-mail and text
 * (lib/sync/plan/gone-contacts.ts). Keys only: what else we knew of them is the upstream's now.
 */
export async function listContactsToUnsubscribe(db: Database, locationId: string, limit = PREVIEW_PAGE_SIZE): Promise<string[]> {
  return goneContactKeys(db, locationId, false, limit);
}

/** The records table's page: mapped records, or with `status=removed` the records the upstream holds that the source no longer sends. */
export async function listPreviewPage(db: Database, locationId: string, query: PreviewQuery) {
  if (query.status === "removed") {
    const removed = await listRemovedRecords(db, locationId, query.type, query);
    return { items: [], removed: removed.items, total: removed.total };
  }
  return { ...(await listPreviewRecords(db, locationId, query)), removed: null };
}

import { and, eq, ne, sql as drizzleSql } from "drizzle-orm";
import type { DatabaseConnection } from "@/db/client";
import { locations, previewRuns } from "@/db/schema";
import { DomainError } from "@/lib/errors/domain-error";
import { mapRow } from "@/lib/mapping/map-row";
import type { MappingContext } from "@/lib/mapping/mapping-types";
import type { SourceReader } from "@/lib/source/source-reader";
import { sourceReaderFromEnvironment } from "@/lib/source/sql-source-reader";
import { defaultDateTimeStyle } from "@/lib/upstream/formats";
import { crossCheckPreview } from "./cross-check-preview";
import { countPreview, diffBatch } from "./preview-counts";
import { planPreviewReads } from "./preview-plan";
import { previewRowsOf, type MappedForPreview, type PreviewIssueRow, type PreviewRecordRow } from "./preview-row";
import { writePreviewBatch } from "./write-preview-batch";

export interface ComputePreviewOptions {
  /** Defaults to the SQL reader of SOURCE_DATABASE_URL (or the app's demo schema). */
  reader?: SourceReader;
  now?: Date;
  batchSize?: number;
}

const notInSyncUse = drizzleSql`not exists (select 1 from sync_sessions s where s.preview_run_id = ${previewRuns.id}
  and (s.status in ('queued', 'running') or (s.status in ('failed', 'cancelled') and s.upstream_open)))`;

/**
 * Computes a preview run: reads every resource of the location's source in
 * batches, maps each row, stores the records and issues batch by batch (with
 * progress), then cross-checks, diffs and counts in SQL. Restartable: a retry
 * starts the run over. Memory is bounded by one batch.
 */
export async function computePreview(connection: DatabaseConnection, runId: string, options: ComputePreviewOptions = {}): Promise<void> {
  const { db, sql } = connection;
  const [run] = await db.select().from(previewRuns).where(eq(previewRuns.id, runId));
  if (!run || run.status === "succeeded") return;
  const [location] = await db.select().from(locations).where(eq(locations.id, run.locationId));
  if (!location) return;
  const reader = options.reader ?? sourceReaderFromEnvironment();
  const now = options.now ?? new Date();
  try {
    if (!location.sourceKey) throw new DomainError("CONFLICT", "This location has no source key: support sets it (Edit location) to say which location of the management system it reads.");
    const sourceKey = location.sourceKey;
    const plan = planPreviewReads(location, now);
    const fingerprint = await reader.fingerprint(sourceKey);
    await sql`delete from preview_records where run_id = ${runId}`;
    await sql`delete from preview_issues where run_id = ${runId}`;
    await db
      .update(previewRuns)
      .set({ status: "running", startedAt: now, sourceFingerprint: fingerprint, error: null, progress: Object.fromEntries(plan.map((read) => [read.recordType, { rows: 0, done: false }])) })
      .where(eq(previewRuns.id, runId));

    const context: MappingContext = { timeZone: location.timeZone, country: location.country, dateTimeStyle: defaultDateTimeStyle, now };
    for (const read of plan) {
      let seq = 0;
      for await (const batch of reader.read(read.resource, { sourceKey, windowStart: read.windowStart, windowEnd: read.windowEnd }, { batchSize: options.batchSize })) {
        const records: PreviewRecordRow[] = [];
        const issues: PreviewIssueRow[] = [];
        for (const row of batch) {
          const rows = previewRowsOf(runId, read.recordType, seq++, mapRow(read.resource, row, context) as MappedForPreview);
          records.push(rows.record);
          issues.push(...rows.issues);
        }
        const diffs = await diffBatch(sql, location.id, read.recordType, records);
        records.forEach((record, index) => (record.diff = diffs[index] ?? null));
        await writePreviewBatch(sql, records, issues);
        await setProgress(connection, runId, read.recordType, seq, false);
      }
      await setProgress(connection, runId, read.recordType, seq, true);
    }

    await crossCheckPreview(sql, runId);
    const counts = await countPreview(
      sql,
      runId,
      location.id,
      plan.map((read) => read.recordType),
    );
    await db.update(previewRuns).set({ status: "succeeded", counts, finishedAt: new Date() }).where(eq(previewRuns.id, runId));
    // The newest succeeded run is the cache; older runs only cost space, unless a sync session sends from one (or may resume from it).
    await db.delete(previewRuns).where(
      and(eq(previewRuns.locationId, location.id), ne(previewRuns.id, runId), ne(previewRuns.status, "queued"), ne(previewRuns.status, "running"), notInSyncUse),
    );
  } catch (error) {
    const message = error instanceof DomainError ? error.message : `The preview could not be computed (${error instanceof Error ? error.name : "error"}). It was logged; try Refresh.`;
    if (!(error instanceof DomainError)) console.error(`[preview] run ${runId} failed:`, error instanceof Error ? error.message : error);
    await db.update(previewRuns).set({ status: "failed", error: message, finishedAt: new Date() }).where(eq(previewRuns.id, runId));
  } finally {
    if (!options.reader) await reader.close();
  }
}

async function setProgress(connection: DatabaseConnection, runId: string, type: string, rows: number, done: boolean) {
  await connection.db
    .update(previewRuns)
    .set({ progress: drizzleSql`jsonb_set(${previewRuns.progress}, ${`{${type}}`}::text[], ${JSON.stringify({ rows, done })}::jsonb)` })
    .where(eq(previewRuns.id, runId));
}

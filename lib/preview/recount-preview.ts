import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import type { OperationContext } from "@/lib/operations/context";
import { previewRuns, syncSessions } from "@/db/schema";
import { countPreview } from "./preview-counts";
import { previewRecordTypes } from "./preview-plan";
import { getPreviewRuns, type PreviewRun } from "./read-preview";
import { previewStoreIntact } from "./preview-store";

// New, changed and removed are counted against what the upstream accepted, which every sync session changes.
// A session's own preview run is not counted (the session does not need the counts, and they would be out of
// date the moment it sends); the location is counted once the session ended, in the background.

export type PreviewCountsState =
  /** Counted after the last session that sent anything ended. */
  | "current"
  /** A session is sending: counted when it ends. */
  | "sync_running"
  /** Never counted, or counted before the last session ended. */
  | "outdated";

export async function previewCountsState(db: Database, run: Pick<PreviewRun, "locationId" | "counts" | "countedAt">): Promise<PreviewCountsState> {
  // One session at a time per location: the newest one that started is the last to have sent anything.
  const [latest] = await db
    .select({ status: syncSessions.status, finishedAt: syncSessions.finishedAt })
    .from(syncSessions)
    .where(and(eq(syncSessions.locationId, run.locationId), isNotNull(syncSessions.startedAt)))
    .orderBy(desc(syncSessions.createdAt))
    .limit(1);
  if (latest?.status === "running") return "sync_running";
  if (!run.counts || !run.countedAt) return "outdated";
  return latest?.finishedAt && latest.finishedAt > run.countedAt ? "outdated" : "current";
}

/** Counts the location's shown preview against what the upstream has accepted now, unless that is already done. */
export async function recountPreview(ctx: OperationContext, input: { locationId: string }): Promise<void> {
  const { db } = ctx;
  const { locationId } = input;
  const { shown } = await getPreviewRuns(db, locationId);
  if (!shown || (await previewCountsState(db, shown)) !== "outdated") return;
  // The database's clock (sessions' finished_at is too), read before counting: a session ending while this counts
  // leaves the counts outdated, and they are counted again.
  const [clock] = await queryRows<{ ms: number }>(db, sql`select floor(extract(epoch from clock_timestamp()) * 1000)::float8 as ms`);
  const countedAt = new Date(clock!.ms);
  const counts = await countPreview(
    db,
    locationId,
    previewRecordTypes.filter((type) => type in shown.progress),
  );
  // Not counts of the tables a crash emptied while this counted (lib/preview/preview-store.ts).
  await db
    .update(previewRuns)
    .set({ counts, countedAt })
    .where(and(eq(previewRuns.id, shown.id), previewStoreIntact(shown.storeEpoch!)));
}

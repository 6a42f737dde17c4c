import type { Database } from "@/db/client";
import type { PreviewRun } from "./read-preview";
import { previewCountsState, type PreviewCountsState } from "./recount-preview";
import { requestPreviewRecount } from "./recount-preview-job";

/**
 * The state of the shown run's counts, for a page showing them: outdated counts are asked for at once (at most one
 * count waits per location), unless a run in flight will count anyway.
 */
export async function ensurePreviewCounts(
  db: Database,
  runs: { shown: Pick<PreviewRun, "locationId" | "counts" | "countedAt"> | null; active: unknown },
): Promise<PreviewCountsState | null> {
  if (!runs.shown) return null;
  const state = await previewCountsState(db, runs.shown);
  if (state === "outdated" && !runs.active) await requestPreviewRecount(runs.shown.locationId);
  return state;
}

import type { Database } from "@/db/client";
import { PreviewQuery } from "@/lib/preview/preview-inputs";
import { previewRecordTypes } from "@/lib/preview/preview-plan";
import { getPreviewRuns, listPreviewRecords } from "@/lib/preview/read-preview";

/**
 * Whether the preview page (app/(dashboard)/locations/[locationId]/preview/page.tsx) would show records now: the
 * same reads for its first, unfiltered page. While a first run is in flight it shows the record types read so far.
 */
export async function firstPreviewPageShown(db: Database, locationId: string): Promise<boolean> {
  const { shown, active } = await getPreviewRuns(db, locationId);
  const readSoFar = active && !shown ? previewRecordTypes.filter((type) => active.progress[type]?.done) : [];
  if (!shown && !readSoFar.length) return false;
  const types = shown ? previewRecordTypes.filter((type) => (shown.counts ? shown.counts[type] : type in shown.progress)) : readSoFar;
  const { items } = await listPreviewRecords(db, locationId, PreviewQuery.parse({ type: types[0] ?? "calendars" }));
  return items.length > 0;
}

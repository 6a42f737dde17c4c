import type { Database } from "@/db/client";
import type { SourceReader } from "@/lib/source/source-reader";
import { getPreviewRuns } from "./read-preview";
import { requestPreview } from "./request-preview";

/**
 * The preview is cached until the source changes: opening it starts a new run when
 * there is none yet or the source's fingerprint moved since the shown one.
 */
export async function ensureFreshPreview(db: Database, reader: SourceReader, location: { id: string; sourceKey: string | null }, requestedByEmail: string | null) {
  const runs = await getPreviewRuns(db, location.id);
  if (runs.active || !location.sourceKey) return { ...runs, stale: false };
  if (!runs.shown) {
    if (runs.lastFailed) return { ...runs, stale: false };
    return { ...runs, active: await requestPreview(db, location.id, requestedByEmail), stale: false };
  }
  const stale = runs.shown.sourceFingerprint !== (await reader.fingerprint(location.sourceKey));
  if (!stale) return { ...runs, stale };
  return { ...runs, active: await requestPreview(db, location.id, requestedByEmail), stale };
}

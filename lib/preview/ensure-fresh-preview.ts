import { systemActor } from "@/lib/audit/record-audit-event";
import { can, type OperationActor } from "@/lib/auth/permissions";
import type { EnvironmentName } from "@/lib/environments/environment-inputs";
import { environmentDateTimeStyle } from "@/lib/environments/get-environment-credentials";
import type { OperationContext } from "@/lib/operations/context";
import type { SourceReader } from "@/lib/source/source-reader";
import { mappingBasisOf } from "./mapping-basis";
import { failStoppedPreviewRuns } from "./preview-run-lease";
import { readPreviewRuns } from "./read-preview";
import { requestPreview } from "./request-preview";

/**
 * The preview is cached until the source or what its mapping depends on changes: opening it (`viewer` may see it:
 * "preview.view") starts a new run when there is none yet, when the source's fingerprint or the mapping basis (zone,
 * country, automotive flag, SQL files, mapping version: lib/preview/mapping-basis.ts) moved since the shown one, or
 * when the run in flight lost its process (its lease expired: lib/preview/preview-run-lease.ts; it is failed). The run
 * names the viewer when they may refresh previews themselves ("preview.refresh"), and nobody otherwise; the system
 * starts it either way.
 */
export async function ensureFreshPreview(
  ctx: OperationContext<OperationActor>,
  {
    location,
    reader,
  }: {
    location: { id: string; sourceKey: string | null; timeZone: string; country: string; automotive: boolean; environment: EnvironmentName };
    reader: SourceReader;
  },
) {
  const { db, actor: viewer } = ctx;
  const runs = await readPreviewRuns(ctx, { locationId: location.id });
  const requestedByEmail = can(viewer, "preview.refresh") ? viewer.email : null;
  const request = (rebuild = false) => requestPreview({ db, actor: systemActor }, { locationId: location.id, requestedByEmail, rebuild });
  if (!location.sourceKey) return { ...runs, stale: false };
  if (runs.active) {
    if ((await failStoppedPreviewRuns(db, location.id)) === 0) return { ...runs, stale: false };
    // Nobody computes the run in flight any more: it failed above, and the page asks for it again.
    const active = await request(runs.active.rebuild);
    return { ...(await readPreviewRuns(ctx, { locationId: location.id })), active, stale: false };
  }
  if (!runs.shown) {
    if (runs.lastFailed) return { ...runs, stale: false };
    return { ...runs, active: await request(), stale: false };
  }
  const dateTimeStyle = await environmentDateTimeStyle(db, location.environment);
  const [fingerprint, basis] = await Promise.all([reader.fingerprint(location.sourceKey), mappingBasisOf({ ...location, dateTimeStyle }, reader)]);
  const stale = runs.shown.sourceFingerprint !== fingerprint || runs.shown.mappingBasis !== basis;
  if (!stale) return { ...runs, stale };
  return { ...runs, active: await request(), stale };
}

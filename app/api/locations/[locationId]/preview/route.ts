// GET /api/locations/[locationId]/preview – the shown preview's counts and the run in flight · POST – refresh (start a new run), or rebuild with { "rebuild": true }
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { requestPreviewInputOf } from "@/lib/preview/preview-inputs";
import { readPreviewRuns } from "@/lib/preview/read-preview";
import { requestPreview } from "@/lib/preview/request-preview";

export const GET = routeHandler({ action: "preview.view", params: LocationId }, async ({ user, params }) =>
  readPreviewRuns({ db: getDatabase(), actor: user }, params),
);

// The body is optional (an empty one refreshes), so it is read here rather than by routeHandler's `body`, which requires JSON.
// A rebuild is "preview.rebuild", which requestPreview checks.
export const POST = routeHandler({ action: "preview.refresh", params: LocationId }, async ({ request, actor, params }) => {
  const input = requestPreviewInputOf(await request.text());
  const run = await requestPreview({ db: getDatabase(), actor }, { locationId: params.locationId, rebuild: input.rebuild });
  return Response.json({ run }, { status: 202, headers: { "cache-control": "no-store" } });
});

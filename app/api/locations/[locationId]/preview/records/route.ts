// GET /api/locations/[locationId]/preview/records – one page of the shown preview's mapped records, or with status=removed its removed ones (the page's filters)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { PreviewQuery } from "@/lib/preview/preview-inputs";
import { getDisplayedPreviewRun, listPreviewPage } from "@/lib/preview/read-preview";

export const GET = routeHandler({ action: "preview.view", params: LocationId, query: PreviewQuery }, async ({ user, params, query }) => {
  const shown = await getDisplayedPreviewRun({ db: getDatabase(), actor: user }, params);
  return { runId: shown.id, ...(await listPreviewPage(getDatabase(), params.locationId, query)) };
});

// GET /api/locations/[locationId]/preview/records – one page of the shown preview's mapped records (same filters as the page)
import { getDatabase } from "@/db/client";
import { assertLocationVisible } from "@/lib/auth/guard";
import { ALL_ROLES } from "@/lib/auth/roles";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { PreviewQuery } from "@/lib/preview/preview-inputs";
import { getShownPreviewRun, listPreviewRecords } from "@/lib/preview/read-preview";

export const GET = routeHandler({ roles: ALL_ROLES, params: LocationId, query: PreviewQuery }, async ({ user, params, query }) => {
  await assertLocationVisible(user, params.locationId);
  const shown = await getShownPreviewRun(getDatabase(), params.locationId);
  return { runId: shown.id, ...(await listPreviewRecords(getDatabase(), params.locationId, query)) };
});

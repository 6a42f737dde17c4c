// GET /api/locations/[locationId]/preview/issues – every issue of the shown preview as CSV (personal values masked)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { issuesCsvStream } from "@/lib/preview/issues-csv";
import { getShownPreviewRun } from "@/lib/preview/read-preview";

export const GET = routeHandler({ action: "preview.view", params: LocationId }, async ({ user, params }) => {
  await getShownPreviewRun({ db: getDatabase(), actor: user }, params);
  return new Response(issuesCsvStream(getDatabase(), params.locationId), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="preview-issues-${params.locationId}.csv"`,
      "cache-control": "no-store",
    },
  });
});

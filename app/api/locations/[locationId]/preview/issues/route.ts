// GET /api/locations/[locationId]/preview/issues – every issue of the shown preview as CSV (personal values masked)
import { getConnection, getDatabase } from "@/db/client";
import { assertLocationVisible } from "@/lib/auth/guard";
import { ALL_ROLES } from "@/lib/auth/roles";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { issuesCsvStream } from "@/lib/preview/issues-csv";
import { getShownPreviewRun } from "@/lib/preview/read-preview";

export const GET = routeHandler({ roles: ALL_ROLES, params: LocationId }, async ({ user, params }) => {
  await assertLocationVisible(user, params.locationId);
  await getShownPreviewRun(getDatabase(), params.locationId);
  return new Response(issuesCsvStream(getConnection().sql, params.locationId), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="preview-issues-${params.locationId}.csv"`,
      "cache-control": "no-store",
    },
  });
});

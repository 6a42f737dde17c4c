// GET /api/locations/[locationId]/preview – the shown preview's counts and the run in flight · POST – refresh (start a new run)
import { getDatabase } from "@/db/client";
import { assertLocationVisible } from "@/lib/auth/guard";
import { ALL_ROLES } from "@/lib/auth/roles";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { getPreviewRuns } from "@/lib/preview/read-preview";
import { requestPreview } from "@/lib/preview/request-preview";

export const GET = routeHandler({ roles: ALL_ROLES, params: LocationId }, async ({ user, params }) => {
  await assertLocationVisible(user, params.locationId);
  return getPreviewRuns(getDatabase(), params.locationId);
});

export const POST = routeHandler({ roles: ["admin", "support", "owner"], params: LocationId }, async ({ user, params }) => {
  await assertLocationVisible(user, params.locationId);
  const run = await requestPreview(getDatabase(), params.locationId, user.email);
  return Response.json({ run }, { status: 202, headers: { "cache-control": "no-store" } });
});

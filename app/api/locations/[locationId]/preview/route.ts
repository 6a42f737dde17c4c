// GET /api/locations/[locationId]/preview – the shown preview's counts and the run in flight · POST – refresh (start a new run), or rebuild with { "rebuild": true }
import { getDatabase } from "@/db/client";
import { assertLocationVisible } from "@/lib/auth/guard";
import { ALL_ROLES } from "@/lib/auth/roles";
import { DomainError } from "@/lib/errors/domain-error";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { getPreviewRuns } from "@/lib/preview/read-preview";
import { PREVIEW_REBUILD_ROLES, requestPreviewInputOf } from "@/lib/preview/preview-inputs";
import { requestPreview } from "@/lib/preview/request-preview";

export const GET = routeHandler({ roles: ALL_ROLES, params: LocationId }, async ({ user, params }) => {
  await assertLocationVisible(user, params.locationId);
  return getPreviewRuns(getDatabase(), params.locationId);
});

// The body is optional (an empty one refreshes), so it is read here rather than by routeHandler's `body`, which requires JSON.
export const POST = routeHandler({ roles: ["admin", "support", "owner"], params: LocationId }, async ({ request, user, params }) => {
  const input = requestPreviewInputOf(await request.text());
  if (input.rebuild && !PREVIEW_REBUILD_ROLES.includes(user.role)) throw new DomainError("FORBIDDEN", "Only support and admins may rebuild a preview; Refresh preview is yours.");
  await assertLocationVisible(user, params.locationId);
  const run = await requestPreview(getDatabase(), params.locationId, user.email, { rebuild: input.rebuild });
  return Response.json({ run }, { status: 202, headers: { "cache-control": "no-store" } });
});

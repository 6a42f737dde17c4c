// GET /api/locations/[locationId]/sessions – the location's session history · POST – start a sync session ("Sync now" / "Full resync")
import { getDatabase } from "@/db/client";
import { assertLocationVisible } from "@/lib/auth/guard";
import { ALL_ROLES } from "@/lib/auth/roles";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { listSessionHistory } from "@/lib/sync/read-session-history";
import { SessionHistoryQuery, StartSessionInput } from "@/lib/sync/session-inputs";
import { startManualSession } from "@/lib/sync/start-manual-session";

export const GET = routeHandler({ roles: ALL_ROLES, params: LocationId, query: SessionHistoryQuery }, async ({ user, params, query }) => {
  await assertLocationVisible(user, params.locationId);
  return listSessionHistory(getDatabase(), params.locationId, query);
});

export const POST = routeHandler({ roles: ["admin", "support", "owner"], params: LocationId, body: StartSessionInput }, async ({ user, params, body, clientAddress }) => {
  await assertLocationVisible(user, params.locationId);
  const started = await startManualSession(getDatabase(), { id: user.id, email: user.email, clientAddress }, { ...body, locationId: params.locationId });
  return Response.json(started, { status: 202, headers: { "cache-control": "no-store" } });
});

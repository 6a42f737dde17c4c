// GET /api/locations/[locationId]/sessions – the location's session history · POST – start a sync session ("Sync now" / "Full resync")
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { listSessionHistory } from "@/lib/sync/read-session-history";
import { SessionHistoryQuery, StartSessionInput } from "@/lib/sync/session-inputs";
import { startManualSession } from "@/lib/sync/start-manual-session";

export const GET = routeHandler({ action: "session.view", params: LocationId, query: SessionHistoryQuery }, async ({ user, params, query }) =>
  listSessionHistory({ db: getDatabase(), actor: user }, { ...query, ...params }),
);

export const POST = routeHandler({ action: "sync.start", params: LocationId, body: StartSessionInput }, async ({ actor, params, body }) => {
  const started = await startManualSession({ db: getDatabase(), actor }, { ...body, locationId: params.locationId });
  return Response.json(started, { status: 202, headers: { "cache-control": "no-store" } });
});

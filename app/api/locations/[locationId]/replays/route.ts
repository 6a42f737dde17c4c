// POST /api/locations/[locationId]/replays – send one or more steps again (appointments: of a date range), with a reason
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { startReplay } from "@/lib/sync/replay/start-replay";
import { ReplayInput } from "@/lib/sync/session-inputs";

export const POST = routeHandler({ action: "sync.replay", params: LocationId, body: ReplayInput }, async ({ actor, params, body }) => {
  const started = await startReplay({ db: getDatabase(), actor }, { ...body, locationId: params.locationId });
  return Response.json(started, { status: 202, headers: { "cache-control": "no-store" } });
});

// POST /api/locations/[locationId]/schedule – pause or resume the location's daily sync, with why
import { getDatabase } from "@/db/client";
import { SchedulePauseInput, setSchedulePaused } from "@/lib/fleet/schedule-pause";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";

export const POST = routeHandler({ action: "schedule.pause", params: LocationId, body: SchedulePauseInput }, async ({ actor, params, body }) => ({
  schedule: await setSchedulePaused({ db: getDatabase(), actor }, { ...body, locationId: params.locationId }),
}));

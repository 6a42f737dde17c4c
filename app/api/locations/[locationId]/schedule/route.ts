// POST /api/locations/[locationId]/schedule – pause or resume the location's daily sync, with why
import { getDatabase } from "@/db/client";
import { SchedulePauseInput, setSchedulePaused } from "@/lib/fleet/schedule-pause";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";

export const POST = routeHandler({ roles: ["admin", "support"], params: LocationId, body: SchedulePauseInput }, async ({ user, params, body, clientAddress }) => ({
  schedule: await setSchedulePaused(getDatabase(), { id: user.id, email: user.email, clientAddress }, params.locationId, body),
}));

// POST /api/locations/[locationId]/environment – move to another environment (the token is dropped; the owner reconnects)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId, MoveLocationEnvironmentInput } from "@/lib/locations/location-inputs";
import { moveLocationEnvironment } from "@/lib/locations/move-location-environment";

export const POST = routeHandler(
  { action: "location.environment.move", params: LocationId, body: MoveLocationEnvironmentInput },
  async ({ actor, params, body }) => ({
    location: await moveLocationEnvironment({ db: getDatabase(), actor }, { ...body, locationId: params.locationId }),
  }),
);

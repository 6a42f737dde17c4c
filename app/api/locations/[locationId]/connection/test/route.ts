// POST /api/locations/[locationId]/connection/test – check the stored token with GET /users/me
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { testConnection } from "@/lib/locations/test-connection";

export const POST = routeHandler({ action: "location.connect", params: LocationId }, async ({ actor, params }) =>
  testConnection({ db: getDatabase(), actor }, { locationId: params.locationId }),
);

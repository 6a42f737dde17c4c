// GET /api/locations – one page of the locations the caller may see · POST /api/locations – add a location
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { createLocation } from "@/lib/locations/create-location";
import { listLocations } from "@/lib/locations/list-locations";
import { LocationInput, LocationListQuery } from "@/lib/locations/location-inputs";

export const GET = routeHandler({ action: "location.view", query: LocationListQuery }, async ({ user, query }) =>
  listLocations({ db: getDatabase(), actor: user }, query),
);

export const POST = routeHandler({ action: "location.create", body: LocationInput }, async ({ actor, body }) => {
  const location = await createLocation({ db: getDatabase(), actor }, body);
  return Response.json({ location }, { status: 201, headers: { "cache-control": "no-store" } });
});

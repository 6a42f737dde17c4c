// GET /api/locations – one page of the locations the caller may see · POST /api/locations – add a location
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { createLocation } from "@/lib/locations/create-location";
import { listLocations } from "@/lib/locations/list-locations";
import { LocationInput, LocationListQuery } from "@/lib/locations/location-inputs";

export const GET = routeHandler({ roles: ["admin", "support", "engineer", "owner"], query: LocationListQuery }, async ({ user, query }) =>
  listLocations(getDatabase(), user, query),
);

export const POST = routeHandler({ roles: ["admin", "support"], body: LocationInput }, async ({ user, body, clientAddress }) => {
  const location = await createLocation(getDatabase(), { id: user.id, email: user.email, clientAddress }, body);
  return Response.json({ location }, { status: 201, headers: { "cache-control": "no-store" } });
});

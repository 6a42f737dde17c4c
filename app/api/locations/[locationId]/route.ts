// GET /api/locations/[locationId] – one location (no token) · PATCH – edit its settings
import { getDatabase } from "@/db/client";
import { assertLocationVisible } from "@/lib/auth/guard";
import { routeHandler } from "@/lib/http/route-handler";
import { getLocationRow, toLocationView } from "@/lib/locations/get-location";
import { LocationId, LocationUpdateInput } from "@/lib/locations/location-inputs";
import { updateLocation } from "@/lib/locations/update-location";

export const GET = routeHandler({ roles: ["admin", "support", "engineer", "owner"], params: LocationId }, async ({ user, params }) => {
  await assertLocationVisible(user, params.locationId);
  return { location: toLocationView(await getLocationRow(getDatabase(), params.locationId)) };
});

export const PATCH = routeHandler({ roles: ["admin", "support"], params: LocationId, body: LocationUpdateInput }, async ({ user, params, body, clientAddress }) => ({
  location: await updateLocation(getDatabase(), { id: user.id, email: user.email, clientAddress }, params.locationId, body),
}));

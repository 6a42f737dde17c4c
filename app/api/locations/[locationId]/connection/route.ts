// POST /api/locations/[locationId]/connection – connect or reconnect (owner token flow) · DELETE – disconnect
import { getDatabase } from "@/db/client";
import { assertLocationVisible } from "@/lib/auth/guard";
import { routeHandler } from "@/lib/http/route-handler";
import { connectLocation } from "@/lib/locations/connect-location";
import { disconnectLocation } from "@/lib/locations/disconnect-location";
import { ConnectLocationInput, LocationId } from "@/lib/locations/location-inputs";

const roles = ["admin", "support", "owner"] as const;

export const POST = routeHandler({ roles, params: LocationId, body: ConnectLocationInput }, async ({ user, params, body, clientAddress }) => {
  await assertLocationVisible(user, params.locationId);
  const location = await connectLocation(getDatabase(), { id: user.id, email: user.email, clientAddress }, params.locationId, body);
  return { location };
});

export const DELETE = routeHandler({ roles, params: LocationId }, async ({ user, params, clientAddress }) => {
  await assertLocationVisible(user, params.locationId);
  const location = await disconnectLocation(getDatabase(), { id: user.id, email: user.email, clientAddress }, params.locationId);
  return { location };
});

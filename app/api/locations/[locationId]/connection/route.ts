// POST /api/locations/[locationId]/connection – connect or reconnect (owner token flow) · DELETE – disconnect
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { connectLocation } from "@/lib/locations/connect-location";
import { disconnectLocation } from "@/lib/locations/disconnect-location";
import { ConnectLocationInput, LocationId } from "@/lib/locations/location-inputs";

export const POST = routeHandler({ action: "location.connect", params: LocationId, body: ConnectLocationInput }, async ({ actor, params, body }) => {
  const location = await connectLocation({ db: getDatabase(), actor }, { ...body, locationId: params.locationId });
  return { location };
});

export const DELETE = routeHandler({ action: "location.connect", params: LocationId }, async ({ actor, params }) => {
  const location = await disconnectLocation({ db: getDatabase(), actor }, { locationId: params.locationId });
  return { location };
});

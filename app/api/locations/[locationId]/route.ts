// GET /api/locations/[locationId] – one location (no token) · PATCH – edit its settings · DELETE – delete an archived one for good ({ confirmName })
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { readLocation } from "@/lib/locations/get-location";
import { deleteLocation } from "@/lib/locations/delete-location";
import { DeleteLocationInput, LocationId, LocationUpdateInput } from "@/lib/locations/location-inputs";
import { updateLocation } from "@/lib/locations/update-location";

export const GET = routeHandler({ action: "location.view", params: LocationId }, async ({ actor, params }) => ({
  location: await readLocation({ db: getDatabase(), actor }, params),
}));

export const PATCH = routeHandler({ action: "location.edit", params: LocationId, body: LocationUpdateInput }, async ({ actor, params, body }) => ({
  location: await updateLocation({ db: getDatabase(), actor }, { ...body, locationId: params.locationId }),
}));

export const DELETE = routeHandler({ action: "location.delete", params: LocationId, body: DeleteLocationInput }, async ({ actor, params, body }) =>
  deleteLocation({ db: getDatabase(), actor }, { ...body, locationId: params.locationId }),
);

// POST /api/locations/[locationId]/archive – archive (disconnect, no schedule, read-only history) · DELETE – restore
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { archiveLocation, restoreLocation } from "@/lib/locations/archive-location";
import { LocationId } from "@/lib/locations/location-inputs";

export const POST = routeHandler({ action: "location.archive", params: LocationId }, async ({ actor, params }) => ({
  location: await archiveLocation({ db: getDatabase(), actor }, params),
}));

export const DELETE = routeHandler({ action: "location.archive", params: LocationId }, async ({ actor, params }) => ({
  location: await restoreLocation({ db: getDatabase(), actor }, params),
}));

// POST /api/locations/[locationId]/connection/test – check the stored token with GET /users/me
import { getDatabase } from "@/db/client";
import { assertLocationVisible } from "@/lib/auth/guard";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { testConnection } from "@/lib/locations/test-connection";

export const POST = routeHandler({ roles: ["admin", "support", "owner"], params: LocationId }, async ({ user, params, clientAddress }) => {
  await assertLocationVisible(user, params.locationId);
  return testConnection(getDatabase(), { id: user.id, email: user.email, clientAddress }, params.locationId);
});

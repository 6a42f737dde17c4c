// POST /api/locations/[locationId]/owner-invitations – invite the location's owner (one-time link to set a password and connect)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { inviteLocationOwner } from "@/lib/locations/invite-location-owner";
import { LocationId, OwnerInvitationInput } from "@/lib/locations/location-inputs";

export const POST = routeHandler({ roles: ["admin", "support"], params: LocationId, body: OwnerInvitationInput }, async ({ user, params, body, clientAddress }) => {
  const invitation = await inviteLocationOwner(getDatabase(), { id: user.id, email: user.email, clientAddress }, params.locationId, body);
  return Response.json({ invitation }, { status: 201, headers: { "cache-control": "no-store" } });
});

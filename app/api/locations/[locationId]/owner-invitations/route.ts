// POST /api/locations/[locationId]/owner-invitations – invite the location's owner (one-time link to set a password and connect)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { inviteLocationOwner } from "@/lib/locations/invite-location-owner";
import { LocationId, OwnerInvitationInput } from "@/lib/locations/location-inputs";

export const POST = routeHandler(
  { action: "location.owners.invite", params: LocationId, body: OwnerInvitationInput },
  async ({ actor, params, body }) => {
    const invitation = await inviteLocationOwner({ db: getDatabase(), actor }, { ...body, locationId: params.locationId });
    return Response.json({ invitation }, { status: 201, headers: { "cache-control": "no-store" } });
  },
);

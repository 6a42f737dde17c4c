// POST /api/invites/[token] – the invited person sets their password, or only joins when they have one (public: the link is the credential)
import { getDatabase } from "@/db/client";
import { publicRouteHandler } from "@/lib/http/route-handler";
import { acceptInvite } from "@/lib/users/accept-invite";
import { AcceptInviteInput, InviteToken } from "@/lib/users/user-inputs";

export const POST = publicRouteHandler(
  { action: "public", params: InviteToken, body: AcceptInviteInput },
  async ({ params, body, clientAddress }) => {
    const accepted = await acceptInvite({ db: getDatabase() }, { token: params.token, password: body.password, clientAddress });
    return { email: accepted.email, locationId: accepted.locationId, passwordSet: accepted.passwordSet };
  },
);

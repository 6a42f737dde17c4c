// POST /api/users/[id]/invite – a fresh one-time invite link (earlier ones stop working)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { reissueInvite } from "@/lib/users/reissue-invite";
import { UserId } from "@/lib/users/user-inputs";

export const POST = routeHandler({ roles: ["admin"], params: UserId }, async ({ user, params, clientAddress }) => ({
  invite: await reissueInvite(getDatabase(), { id: user.id, email: user.email, clientAddress }, params.id),
}));

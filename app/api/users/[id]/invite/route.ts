// POST /api/users/[id]/invite – a fresh one-time invite link (earlier ones stop working)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { reissueInvite } from "@/lib/users/reissue-invite";
import { UserId } from "@/lib/users/user-inputs";

export const POST = routeHandler({ action: "users.manage", params: UserId }, async ({ actor, params }) => ({
  invite: await reissueInvite({ db: getDatabase(), actor }, { userId: params.id }),
}));

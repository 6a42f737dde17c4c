// POST /api/users/[id]/password-reset – a one-time password reset link for the user (an unused earlier one stops working)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { issuePasswordReset } from "@/lib/users/password-reset";
import { UserId } from "@/lib/users/user-inputs";

export const POST = routeHandler({ action: "users.manage", params: UserId }, async ({ actor, params }) => ({
  reset: await issuePasswordReset({ db: getDatabase(), actor }, { userId: params.id }),
}));

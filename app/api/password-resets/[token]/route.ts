// POST /api/password-resets/[token] – sets a new password through a reset link (public: the link is the credential)
import { getDatabase } from "@/db/client";
import { publicRouteHandler } from "@/lib/http/route-handler";
import { resetPassword } from "@/lib/users/password-reset";
import { InviteToken, ResetPasswordInput } from "@/lib/users/user-inputs";

export const POST = publicRouteHandler({ action: "public", params: InviteToken, body: ResetPasswordInput }, async ({ params, body, clientAddress }) =>
  resetPassword({ db: getDatabase() }, { token: params.token, password: body.password, clientAddress }),
);

// POST /api/account/password – the signed-in person changes their own password (every session of theirs ends)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { changeOwnPassword } from "@/lib/users/change-own-password";
import { ChangePasswordInput } from "@/lib/users/user-inputs";

export const POST = routeHandler({ action: "account.password", body: ChangePasswordInput }, async ({ user, actor, body }) =>
  changeOwnPassword({ db: getDatabase(), actor: { ...actor, id: user.id, role: user.role } }, body),
);

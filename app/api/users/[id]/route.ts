// PATCH /api/users/[id] – change a user's role or deactivate / reactivate them
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { updateUser } from "@/lib/users/update-user";
import { UpdateUserInput, UserId } from "@/lib/users/user-inputs";

export const PATCH = routeHandler({ action: "users.manage", params: UserId, body: UpdateUserInput }, async ({ actor, params, body }) => {
  await updateUser({ db: getDatabase(), actor }, { ...body, userId: params.id });
  return { ok: true };
});

// GET /api/users – list dashboard users · POST /api/users – create a user and their invite link
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { createUser } from "@/lib/users/create-user";
import { listUsers } from "@/lib/users/list-users";
import { CreateUserInput } from "@/lib/users/user-inputs";

export const GET = routeHandler({ action: "users.manage" }, async ({ actor }) => ({ users: await listUsers({ db: getDatabase(), actor }) }));

export const POST = routeHandler({ action: "users.manage", body: CreateUserInput }, async ({ actor, body }) => {
  const created = await createUser({ db: getDatabase(), actor }, body);
  return Response.json({ user: created }, { status: 201, headers: { "cache-control": "no-store" } });
});

// GET /api/users – list dashboard users · POST /api/users – create a user and their invite link
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { createUser } from "@/lib/users/create-user";
import { listUsers } from "@/lib/users/list-users";
import { CreateUserInput } from "@/lib/users/user-inputs";

export const GET = routeHandler({ roles: ["admin"] }, async () => ({ users: await listUsers(getDatabase()) }));

export const POST = routeHandler({ roles: ["admin"], body: CreateUserInput }, async ({ user, body, clientAddress }) => {
  const created = await createUser(getDatabase(), { id: user.id, email: user.email, clientAddress }, body);
  return Response.json({ user: created }, { status: 201, headers: { "cache-control": "no-store" } });
});

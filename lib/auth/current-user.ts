import { eq } from "drizzle-orm";
import { getServerSession } from "next-auth";
import { getDatabase } from "@/db/client";
import { users } from "@/db/schema";
import { authOptions } from "./auth-options";
import type { Role } from "./roles";

export interface CurrentUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

/**
 * The signed-in user as the database knows them now: a deactivated account, a
 * changed role or a bumped session epoch takes effect on the very next request. A
 * signed-out (revoked) session arrives without a user id: the jwt callback in
 * ./auth-options refuses it, for this look-up and for next-auth's own refresh.
 */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  const session = await getServerSession(authOptions);
  const userId = session?.userId;
  if (!userId) return null;
  const [user] = await getDatabase()
    .select({ id: users.id, email: users.email, name: users.name, role: users.role, active: users.active, sessionEpoch: users.sessionEpoch })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user || !user.active || user.sessionEpoch !== session.sessionEpoch) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

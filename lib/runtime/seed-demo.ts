import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/passwords";
import type { Role } from "@/lib/auth/roles";

/** The embedded default's demo accounts; the README and the start-up banner list them. */
export const demoUsers: { email: string; password: string; role: Role; name: string }[] = [
  { email: "admin@demo.test", password: "demo-admin-password", role: "admin", name: "Ada Admin" },
  { email: "support@demo.test", password: "demo-support-password", role: "support", name: "Sam Support" },
  { email: "engineer@demo.test", password: "demo-engineer-password", role: "engineer", name: "Eli Engineer" },
  { email: "owner@demo.test", password: "demo-owner-password", role: "owner", name: "Olga Owner" },
];

/** Creates the demo users that are missing; never touches an account that exists. */
export async function seedDemoUsers(db: Database): Promise<void> {
  for (const user of demoUsers) {
    await db
      .insert(users)
      .values({ email: user.email, name: user.name, role: user.role, passwordHash: await hashPassword(user.password) })
      .onConflictDoNothing();
  }
}

import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { locationMembers, locations, users } from "@/db/schema";
import { systemActor } from "@/lib/audit/record-audit-event";
import { hashPassword } from "@/lib/auth/passwords";
import type { Role } from "@/lib/auth/roles";
import { getEnvironmentView } from "@/lib/environments/get-environment-view";
import { pointEnvironmentAtSandbox } from "@/lib/environments/point-at-sandbox";
import { systemContext } from "@/lib/operations/context";
import { ensureSandboxDemo } from "@/lib/sandbox/provision";
import { readResponseShapeSetting } from "@/lib/sandbox/response-shapes";

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

/** Demo locations linked to the sandbox's demo locations (lib/sandbox/provision.ts), not yet connected. */
export const demoLocations = [
  {
    name: "Demo Salon North",
    upstreamLocationId: "sbx-loc-1001",
    sourceKey: "demo-salon-north",
    timeZone: "Europe/Berlin",
    country: "DE",
    automotive: false,
    ownerEmail: "owner@demo.test",
  },
  {
    name: "Demo Salon South",
    upstreamLocationId: "sbx-loc-1002",
    sourceKey: "demo-salon-south",
    timeZone: "Europe/Berlin",
    country: "DE",
    automotive: false,
    ownerEmail: "owner@demo.test",
  },
  {
    name: "Demo Garage",
    upstreamLocationId: "sbx-loc-2001",
    sourceKey: "demo-garage",
    timeZone: "America/New_York",
    country: "US",
    automotive: true,
    ownerEmail: null,
  },
] as const;

/** Creates the demo locations that are missing (and their owner membership); never touches existing ones. */
export async function seedDemoLocations(db: Database): Promise<void> {
  for (const { ownerEmail, ...location } of demoLocations) {
    const [created] = await db
      .insert(locations)
      .values({ ...location, environment: "staging", syncTime: "10:00" })
      .onConflictDoNothing()
      .returning({ id: locations.id });
    if (!created || !ownerEmail) continue;
    const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, ownerEmail));
    if (owner) await db.insert(locationMembers).values({ locationId: created.id, userId: owner.id }).onConflictDoNothing();
  }
}

const builtInSandboxUrl = /^http:\/\/127\.0\.0\.1:\d+\/sandbox\/api$/;

/**
 * Points `staging` at the sandbox this process serves, with the sandbox's demo
 * credentials, unless an admin configured staging for something else. SANDBOX_RESPONSE_SHAPE sets how
 * the sandbox answers the bodies the spec does not show (an unknown value stops the start).
 */
export async function pointStagingAtSandbox(db: Database, port: number): Promise<void> {
  const demo = await ensureSandboxDemo(db, { responseShape: readResponseShapeSetting() });
  const baseUrl = `http://127.0.0.1:${port}/sandbox/api`;
  const staging = await getEnvironmentView(systemContext(db), { name: "staging" });
  const untouched = !staging.configured || (staging.baseUrl !== null && builtInSandboxUrl.test(staging.baseUrl));
  if (!untouched || staging.baseUrl === baseUrl) return;
  // The same built-in sandbox on this start's port: the tokens it issued stay valid.
  await pointEnvironmentAtSandbox(
    { db, actor: systemActor },
    { name: "staging", apiBaseUrl: baseUrl, uploadOrigin: `http://127.0.0.1:${port}`, credentials: demo, tokensMoveToNewAddress: true },
  );
}

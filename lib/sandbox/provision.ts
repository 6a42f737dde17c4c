import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { sandboxAccessTokens, sandboxEnvironments, sandboxLocations, sandboxUsers } from "@/db/schema";
import { hashPassword } from "@/lib/auth/passwords";
import type { SandboxResponseShape } from "./response-shapes";
import { createRandomToken, hashSecret } from "./secrets";

export interface SandboxCredentials {
  environmentId: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
  dataSourceName: string;
}

/** Issues the credentials a client receives for one sandbox environment (staging-like). */
export async function createSandboxEnvironment(
  db: DatabaseOrTransaction,
  input: {
    name?: string;
    apiKey?: string;
    clientId?: string;
    clientSecret?: string;
    dataSourceName?: string;
    dateTimeStyle?: "spec" | "rfc3339";
    responseShape?: SandboxResponseShape;
  } = {},
): Promise<SandboxCredentials> {
  const apiKey = input.apiKey ?? createRandomToken("sbx_key_");
  const clientId = input.clientId ?? `sbx_client_${randomBytes(6).toString("hex")}`;
  const clientSecret = input.clientSecret ?? createRandomToken("sbx_secret_");
  const dataSourceName = input.dataSourceName ?? "LocationSync";
  const [row] = await db
    .insert(sandboxEnvironments)
    .values({
      name: input.name ?? `environment-${randomBytes(4).toString("hex")}`,
      apiKeyHash: hashSecret(apiKey),
      clientId,
      clientSecretHash: hashSecret(clientSecret),
      dataSourceName,
      dateTimeStyle: input.dateTimeStyle ?? "spec",
      responseShape: input.responseShape ?? "documented",
    })
    .returning({ id: sandboxEnvironments.id });
  return { environmentId: row!.id, apiKey, clientId, clientSecret, dataSourceName };
}

/** Switches how an environment answers the bodies the spec does not show (lib/sandbox/response-shapes.ts). */
export async function setSandboxResponseShape(
  db: DatabaseOrTransaction,
  input: { environmentId: string; responseShape: SandboxResponseShape },
): Promise<void> {
  await db.update(sandboxEnvironments).set({ responseShape: input.responseShape }).where(eq(sandboxEnvironments.id, input.environmentId));
}

/** A user of the upstream; owns locations when createSandboxLocation names them, else owns nothing. */
export async function createSandboxOwner(
  db: DatabaseOrTransaction,
  input: { environmentId: string; email: string; password: string; name?: string },
): Promise<{ id: string; email: string }> {
  const [row] = await db
    .insert(sandboxUsers)
    .values({
      environmentId: input.environmentId,
      email: input.email,
      name: input.name ?? input.email.split("@")[0]!,
      passwordHash: await hashPassword(input.password),
    })
    .returning({ id: sandboxUsers.id, email: sandboxUsers.email });
  return row!;
}

export async function createSandboxLocation(db: DatabaseOrTransaction, input: { ownerId: string; id?: string; name?: string }): Promise<string> {
  const [owner] = await db.select().from(sandboxUsers).where(eq(sandboxUsers.id, input.ownerId));
  if (!owner) throw new Error("createSandboxLocation: unknown owner");
  const id = input.id ?? `loc_${randomBytes(8).toString("hex")}`;
  await db.insert(sandboxLocations).values({
    id,
    environmentId: owner.environmentId,
    ownerId: owner.id,
    name: input.name ?? `Location ${id}`,
  });
  return id;
}

/** Revokes every token of a user (the sandbox's stand-in for an owner revoking access upstream). */
export async function revokeSandboxTokens(db: DatabaseOrTransaction, input: { userId: string }): Promise<number> {
  const rows = await db
    .update(sandboxAccessTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(sandboxAccessTokens.userId, input.userId), sql`${sandboxAccessTokens.revokedAt} is null`))
    .returning({ tokenHash: sandboxAccessTokens.tokenHash });
  return rows.length;
}

// Fixed on purpose: the sandbox is a local simulator and docs/sandbox.md lists these values.
export const sandboxDemo = {
  environmentName: "demo",
  apiKey: "sandbox-demo-api-key",
  clientId: "sandbox-demo-client",
  clientSecret: "sandbox-demo-client-secret",
  dataSourceName: "LocationSync",
  owners: [
    {
      email: "owner@sandbox.test",
      password: "sandbox-owner-1",
      name: "Olivia Owner",
      locations: [
        { id: "sbx-loc-1001", name: "Demo Salon North" },
        { id: "sbx-loc-1002", name: "Demo Salon South" },
      ],
    },
    {
      email: "owner2@sandbox.test",
      password: "sandbox-owner-2",
      name: "Oscar Owner",
      locations: [{ id: "sbx-loc-2001", name: "Demo Garage" }],
    },
  ],
  strangers: [{ email: "stranger@sandbox.test", password: "sandbox-stranger-1", name: "Sam Stranger" }],
} as const;

export interface SandboxDemo {
  apiKey: string;
  clientId: string;
  clientSecret: string;
  dataSourceName: string;
  owners: { email: string; password: string; locationIds: string[] }[];
  strangers: { email: string; password: string }[];
}

/**
 * Creates the demo environment, owners and locations once; later calls return the same values.
 * A given `responseShape` is applied on every call, so a restart with another SANDBOX_RESPONSE_SHAPE takes effect.
 */
export async function ensureSandboxDemo(db: DatabaseOrTransaction, options: { responseShape?: SandboxResponseShape } = {}): Promise<SandboxDemo> {
  const demo = sandboxDemo;
  const result: SandboxDemo = {
    apiKey: demo.apiKey,
    clientId: demo.clientId,
    clientSecret: demo.clientSecret,
    dataSourceName: demo.dataSourceName,
    owners: demo.owners.map((owner) => ({
      email: owner.email,
      password: owner.password,
      locationIds: owner.locations.map((location) => location.id),
    })),
    strangers: demo.strangers.map(({ email, password }) => ({ email, password })),
  };
  await db.transaction(async (tx) => {
    // Two processes may start at once: serialise on a lock, then check again.
    await tx.execute(sql`select pg_advisory_xact_lock(732104552)`);
    const [existing] = await tx
      .select({ id: sandboxEnvironments.id })
      .from(sandboxEnvironments)
      .where(eq(sandboxEnvironments.name, demo.environmentName));
    if (existing) {
      if (options.responseShape) await setSandboxResponseShape(tx, { environmentId: existing.id, responseShape: options.responseShape });
      return;
    }
    const { environmentId } = await createSandboxEnvironment(tx, {
      name: demo.environmentName,
      apiKey: demo.apiKey,
      clientId: demo.clientId,
      clientSecret: demo.clientSecret,
      dataSourceName: demo.dataSourceName,
      responseShape: options.responseShape,
    });
    for (const owner of demo.owners) {
      const user = await createSandboxOwner(tx, { environmentId, email: owner.email, password: owner.password, name: owner.name });
      for (const location of owner.locations) {
        await createSandboxLocation(tx, { ownerId: user.id, id: location.id, name: location.name });
      }
    }
    for (const stranger of demo.strangers) {
      await createSandboxOwner(tx, { environmentId, ...stranger });
    }
  });
  return result;
}

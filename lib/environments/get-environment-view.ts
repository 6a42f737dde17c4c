import { asc, count, eq, isNotNull } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { environments, locations, users } from "@/db/schema";
import { assertCan, type Actor } from "@/lib/auth/permissions";
import { environmentSecretContext } from "@/lib/crypto/encrypted-columns";
import { openSecret, SecretBoxError, secretHint } from "@/lib/crypto/secret-box";
import { originOf } from "@/lib/locations/location-token";
import type { OperationContext } from "@/lib/operations/context";
import { ensureEnvironments } from "./ensure-environments";
import { EnvironmentView, type EnvironmentName, type SecretStatus } from "./environment-inputs";

type EnvironmentRow = typeof environments.$inferSelect;

/** Both environments as Settings → Environments shows them (secrets masked): admins only ("environments.manage"). */
export async function listEnvironmentViews(ctx: OperationContext<Actor>): Promise<EnvironmentView[]> {
  assertCan(ctx.actor, "environments.manage");
  return readEnvironmentViews(ctx.db);
}

export async function getEnvironmentView(ctx: OperationContext<Actor>, { name }: { name: EnvironmentName }): Promise<EnvironmentView> {
  const views = await listEnvironmentViews(ctx);
  return views.find((view) => view.name === name)!;
}

/** Only reads: operations call it after their own permission check. */
export async function readEnvironmentViews(db: DatabaseOrTransaction): Promise<EnvironmentView[]> {
  await ensureEnvironments(db);
  const rows = await db
    .select({ environment: environments, updatedByEmail: users.email })
    .from(environments)
    .leftJoin(users, eq(users.id, environments.updatedBy))
    .orderBy(asc(environments.name));
  const tokens = await db
    .select({ environment: locations.environment, origin: locations.locationTokenOrigin, count: count() })
    .from(locations)
    .where(isNotNull(locations.locationTokenEncrypted))
    .groupBy(locations.environment, locations.locationTokenOrigin);
  return rows.map((row) => {
    const origin = row.environment.baseUrl ? originOf(row.environment.baseUrl) : null;
    const connected = tokens.filter((token) => token.environment === row.environment.name && origin !== null && token.origin === origin);
    return toEnvironmentView(
      row.environment,
      row.updatedByEmail,
      connected.reduce((sum, token) => sum + token.count, 0),
    );
  });
}

export function isEnvironmentConfigured(row: EnvironmentRow): boolean {
  return Boolean(row.baseUrl && row.uploadHosts.length && row.clientId && row.dataSourceName && row.apiKeyEncrypted && row.clientSecretEncrypted);
}

function toEnvironmentView(row: EnvironmentRow, updatedByEmail: string | null, connectedLocations: number): EnvironmentView {
  // Parsed on the way out so an extra field (a secret) can never slip into a response.
  return EnvironmentView.parse({
    name: row.name,
    baseUrl: row.baseUrl,
    uploadHosts: row.uploadHosts,
    clientId: row.clientId,
    dataSourceName: row.dataSourceName,
    dateTimeStyle: row.dateTimeStyle,
    apiKey: secretStatus(row.apiKeyEncrypted, environmentSecretContext.apiKey(row.name)),
    clientSecret: secretStatus(row.clientSecretEncrypted, environmentSecretContext.clientSecret(row.name)),
    configured: isEnvironmentConfigured(row),
    connectedLocations,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy ? updatedByEmail : null,
  });
}

function secretStatus(sealed: string | null, context: string): SecretStatus {
  if (!sealed) return { set: false, hint: null };
  try {
    return { set: true, hint: secretHint(openSecret(sealed, context)) };
  } catch (error) {
    // A lost key must not lock the admin out of the page that lets them re-enter the secret.
    if (error instanceof SecretBoxError) return { set: true, hint: "set · cannot be decrypted with the current keys: re-enter it" };
    throw error;
  }
}

import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { sandboxAccessTokens, sandboxEnvironments, sandboxLocations, sandboxUsers } from "@/db/schema";
import { SandboxError } from "./errors";
import { hashSecret } from "./secrets";

export type SandboxEnvironment = typeof sandboxEnvironments.$inferSelect;
export type SandboxLocation = typeof sandboxLocations.$inferSelect;
export type SandboxUser = typeof sandboxUsers.$inferSelect;

export interface ResolvedToken {
  kind: "user" | "location";
  user: SandboxUser;
  locationId: string | null;
}

export async function resolveEnvironment(db: Database, request: Request): Promise<SandboxEnvironment> {
  const apiKey = request.headers.get("x-api-key");
  if (!apiKey) throw new SandboxError(401, "invalid_api_key", "The x-api-key header is missing.");
  const [environment] = await db
    .select()
    .from(sandboxEnvironments)
    .where(eq(sandboxEnvironments.apiKeyHash, hashSecret(apiKey)));
  if (!environment) throw new SandboxError(401, "invalid_api_key", "The API key is not valid.");
  return environment;
}

/** Spec 5.4: `Authorization: Bearer` is preferred, `?access_token=` also accepted. */
export function readAccessToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new SandboxError(401, "invalid_token", "The Authorization header must be 'Bearer <token>'.");
    return match[1];
  }
  return new URL(request.url).searchParams.get("access_token") ?? undefined;
}

export async function resolveToken(db: Database, environment: SandboxEnvironment, request: Request): Promise<ResolvedToken> {
  const token = readAccessToken(request);
  if (!token) throw new SandboxError(401, "missing_token", "An access token is required.");
  const [row] = await db
    .select({ token: sandboxAccessTokens, user: sandboxUsers })
    .from(sandboxAccessTokens)
    .innerJoin(sandboxUsers, eq(sandboxUsers.id, sandboxAccessTokens.userId))
    .where(
      and(
        eq(sandboxAccessTokens.tokenHash, hashSecret(token)),
        isNull(sandboxAccessTokens.revokedAt),
        eq(sandboxUsers.environmentId, environment.id),
      ),
    );
  if (!row) throw new SandboxError(401, "invalid_token", "The access token is not valid.");
  return { kind: row.token.kind, user: row.user, locationId: row.token.locationId };
}

export async function findLocation(db: Database, environment: SandboxEnvironment, locationId: string): Promise<SandboxLocation> {
  const [location] = await db
    .select()
    .from(sandboxLocations)
    .where(and(eq(sandboxLocations.id, locationId), eq(sandboxLocations.environmentId, environment.id)));
  if (!location) throw new SandboxError(404, "unknown_location", "No location has this id.");
  return location;
}

/** Data-sync calls: a Location Access Token of this location, or the owner's User Access Token (spec 5.3). */
export function assertLocationAccess(token: ResolvedToken, location: SandboxLocation): void {
  if (token.kind === "location" && token.locationId !== location.id) {
    throw new SandboxError(403, "token_location_mismatch", "The location access token belongs to another location.");
  }
  if (token.user.id !== location.ownerId) {
    throw new SandboxError(403, "not_location_owner", "The token's user does not own this location.");
  }
}

export function assertClient(environment: SandboxEnvironment, clientId: string, clientSecret: string): void {
  if (clientId !== environment.clientId || hashSecret(clientSecret) !== environment.clientSecretHash) {
    throw new SandboxError(401, "invalid_client", "The client_id or client_secret is not valid.");
  }
}

export async function findUserByEmail(db: Database, environment: SandboxEnvironment, email: string): Promise<SandboxUser | undefined> {
  const [user] = await db
    .select()
    .from(sandboxUsers)
    .where(and(eq(sandboxUsers.environmentId, environment.id), sql`lower(${sandboxUsers.email}) = lower(${email})`));
  return user;
}

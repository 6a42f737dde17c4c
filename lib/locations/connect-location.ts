import { pluralize } from "@/lib/format/plural";
import { eq } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locations } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import type { OperationActor } from "@/lib/auth/permissions";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import { createEnvironmentClient } from "@/lib/environments/environment-client";
import { getEnvironmentCredentials, lockEnvironmentBaseUrl } from "@/lib/environments/get-environment-credentials";
import { DomainError } from "@/lib/errors/domain-error";
import { reserveRateLimitSlots, type RateLimitRule } from "@/lib/rate-limit/rate-limit";
import type { UpstreamClientOptions } from "@/lib/upstream/client";
import { connectionAttentionCleared } from "./connection-attention";
import { connectionProblem, type ConnectStep } from "./connection-errors";
import { getLocationRow, locationShownTo, toLocationView, type LocationView, type OwnerLocationView } from "./get-location";
import type { ConnectLocationInput } from "./location-inputs";
import { assertNotArchived, lockLocationRow } from "./location-lifecycle";
import { originOf, sealLocationToken } from "./location-token";

export const connectLimits = {
  perLocation: { limit: 5, windowSeconds: 15 * 60 } satisfies RateLimitRule,
  perAddress: { limit: 20, windowSeconds: 15 * 60 } satisfies RateLimitRule,
};

/** A person is waiting on the page: a few quick retries, then a clear "try again later". */
export const interactiveClientOptions: Partial<UpstreamClientOptions> = {
  timeoutMs: 15_000,
  maxAttempts: 3,
  maxDelayMs: 2_000,
  maxRetryAfterMs: 5_000,
};

/**
 * The owner token flow (spec 5.5), inside the request: email + password → User
 * Access Token → Location Access Token (GET /users/me may name the account). Only the
 * Location Access Token is kept, sealed. The password and the user token live in
 * this function's frame only: never stored, logged, returned or queued.
 */
export async function connectLocation(
  ctx: OperationContext,
  input: ConnectLocationInput & { locationId: string },
): Promise<LocationView | OwnerLocationView> {
  const { db, actor } = ctx;
  const { locationId } = input;
  await assertCanAtLocation(db, actor, "location.connect", locationId);
  const location = await getLocationRow(db, locationId);
  assertNotArchived(location);
  const target = { type: "location", id: location.id, label: location.name };
  await throttle(db, actor, location.id, target);
  if (!location.upstreamLocationId) {
    throw new DomainError("CONFLICT", "This location has no upstream location ID yet. Support sets it (Edit location) before it can be connected.");
  }
  const upstreamLocationId = location.upstreamLocationId;
  const credentials = await getEnvironmentCredentials(db, location.environment);
  const client = createEnvironmentClient(credentials, { ...interactiveClientOptions, ...ctx.upstreamClient });
  const where = { environment: location.environment, upstreamLocationId };

  let step: ConnectStep = "user_token";
  try {
    const userAccessToken = await client.createUserAccessToken({
      email: input.email.trim(),
      password: input.password,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
    });
    step = "location_token";
    const locationToken = await client.createLocationAccessToken({
      userAccessToken,
      locationId: upstreamLocationId,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
    });
    // The spec's two token calls are the whole connection. GET /users/me (a path the spec names, with no answer) checks
    // the token and names the account when it answers 2xx; any other answer leaves the token stored and not checked.
    const me = await client.getCurrentUser({ accessToken: locationToken }).catch(() => null);
    const now = nowOf(ctx);
    const reconnect = Boolean(location.locationTokenEncrypted);
    const upstreamAccountEmail = me?.email ?? input.email.trim().toLowerCase();
    return await db.transaction(async (tx) => {
      // The token flow took seconds: a change of the base URL, an archive or a move of environment may have landed since
      // the first read. The environment is locked first, as a base-URL change locks it before the locations.
      const baseUrl = await lockEnvironmentBaseUrl(tx, location.environment);
      if (!baseUrl || originOf(baseUrl) !== originOf(credentials.baseUrl)) throw addressChangedWhileConnecting(location.environment);
      const current = await lockLocationRow(tx, location.id);
      assertNotArchived(current);
      if (current.environment !== location.environment || current.upstreamLocationId !== upstreamLocationId)
        throw new DomainError("CONFLICT", "The location moved to another environment or upstream location while connecting: connect it again.");
      const [row] = await tx
        .update(locations)
        .set({
          locationTokenEncrypted: sealLocationToken(location.id, locationToken),
          // The token goes only where it came from (lib/locations/location-token.ts).
          locationTokenOrigin: originOf(credentials.baseUrl),
          connectedAt: now,
          connectedByUserId: actor.id,
          connectedByEmail: actor.email,
          upstreamAccountEmail,
          lastCheckedAt: me ? now : null,
          lastCheckOk: me ? true : null,
          ...connectionAttentionCleared,
          updatedAt: now,
        })
        .where(eq(locations.id, location.id))
        .returning();
      await recordAuditEvent(tx, {
        actor,
        action: reconnect ? "location.reconnected" : "location.connected",
        target,
        details: { environment: location.environment, upstreamLocationId, upstreamAccountEmail },
      });
      return locationShownTo(ctx.actor, toLocationView(row!));
    });
  } catch (error) {
    const problem = error instanceof DomainError ? error : connectionProblem(error, step, where);
    await recordAuditEvent(db, { actor, action: "location.connect_failed", target, details: { step, reason: problem.code } });
    throw problem;
  } finally {
    await client.close();
  }
}

/** The token came from the old address: stored, it would go nowhere (or be moved where nothing issued it). */
function addressChangedWhileConnecting(environment: string): DomainError {
  return new DomainError(
    "CONFLICT",
    `The ${environment} environment's service address (base URL) changed while connecting, so the token was not stored. Connect again: the password is not kept, so type it again.`,
  );
}

/**
 * Every attempt counts (it may carry the owner's password to the upstream), per location and per client address:
 * a slot is reserved atomically before anything is sent, so parallel attempts cannot slip past a limit. A refused
 * attempt counts nothing.
 */
async function throttle(db: DatabaseOrTransaction, actor: OperationActor, locationId: string, target: { type: string; id: string; label: string }) {
  const reservation = await reserveRateLimitSlots(db, [
    { key: `connect:location:${locationId}`, rule: connectLimits.perLocation },
    { key: `connect:address:${actor.clientAddress ?? "unknown"}`, rule: connectLimits.perAddress },
  ]);
  if (reservation.reserved) return;
  const { retryAfterSeconds } = reservation;
  const by = reservation.refusedKey.startsWith("connect:location:") ? "location" : "address";
  await recordAuditEvent(db, { actor, action: "location.connect_throttled", target, details: { by } });
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  throw new DomainError(
    "RATE_LIMITED",
    `Too many connection attempts. Nothing was sent to the Marketing Automation Service. Try again in ${pluralize(minutes, "minute")}.`,
    [],
    retryAfterSeconds,
  );
}

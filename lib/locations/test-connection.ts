import { and, eq } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locations } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import type { OperationActor } from "@/lib/auth/permissions";
import { createEnvironmentClient } from "@/lib/environments/environment-client";
import { getEnvironmentCredentials } from "@/lib/environments/get-environment-credentials";
import { DomainError } from "@/lib/errors/domain-error";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import { UpstreamAuthenticationError, UpstreamError, UpstreamUnavailableError } from "@/lib/upstream/errors";
import { interactiveClientOptions } from "./connect-location";
import { connectionAttention, connectionAttentionCleared } from "./connection-attention";
import { environmentCredentialsRefused, refusedCredential } from "./connection-errors";
import { getLocationRow, locationShownTo, toLocationView, type LocationRow, type LocationView, type OwnerLocationView } from "./get-location";
import { openLocationToken, TokenOriginChangedError, TokenUnreadableError } from "./location-token";

export const TOKEN_REFUSED_REASON = "The Marketing Automation Service refused this location's token. Its owner reconnects the location.";

/** A 401/403 whose answer does not say what was refused (the spec shows no error bodies): not blamed on the token. */
export const TOKEN_OR_ENVIRONMENT_REFUSED_REASON =
  "The Marketing Automation Service refused the request: either this location's token or the environment's credentials (an admin runs Test credentials on the environment first; if those pass, the owner reconnects).";

export const TOKEN_CHANGED_DURING_TEST =
  "The location was reconnected or disconnected while its token was being tested, so this check was about a token it no longer holds and nothing was recorded. Test it again.";

export interface ConnectionCheck {
  ok: boolean;
  message: string;
  location: LocationView | OwnerLocationView;
}

/**
 * Test connection: GET /users/me with the stored Location Access Token; any 2xx is a success. A 401/403 marks the
 * location "needs attention" (unless a sync session's reason holds it: connection-attention.ts), blaming the token only
 * when the answer's code says so; one whose code names the environment's credentials records nothing. An unreachable
 * service, or any other answer (the spec shows the path, not its answers), changes nothing and says the token could
 * not be checked.
 */
export async function testConnection(ctx: OperationContext, { locationId }: { locationId: string }): Promise<ConnectionCheck> {
  const { db, actor } = ctx;
  await assertCanAtLocation(db, actor, "location.connect", locationId);
  const location = await getLocationRow(db, locationId);
  const credentials = await getEnvironmentCredentials(db, location.environment);
  const now = nowOf(ctx);
  let accessToken: string;
  try {
    accessToken = openLocationToken(location, credentials);
  } catch (error) {
    // Issued by another address, or sealed under a lost key: nothing is sent; the location needs reconnecting.
    if (error instanceof TokenOriginChangedError)
      return recordCheck(db, actor, location, { ok: false, message: error.message, now, reason: "address_changed" });
    if (error instanceof TokenUnreadableError)
      return recordCheck(db, actor, location, { ok: false, message: error.message, now, reason: "token_unreadable" });
    throw error;
  }
  const client = createEnvironmentClient(credentials, { ...interactiveClientOptions, ...ctx.upstreamClient });
  let ok: boolean;
  let message: string;
  try {
    // Any 2xx means the token works: the spec shows no body, so it only names the account when it can.
    const me = await client.getCurrentUser({ accessToken });
    const account = me.email ?? me.name;
    ok = true;
    message = account ? `Connected: the token acts as ${account}.` : "Connected.";
  } catch (error) {
    if (error instanceof UpstreamUnavailableError) {
      throw new DomainError(
        "UPSTREAM_UNAVAILABLE",
        "The Marketing Automation Service could not be reached. Nothing was changed; try again in a few minutes.",
      );
    }
    if (!(error instanceof UpstreamError)) throw error;
    if (!(error instanceof UpstreamAuthenticationError) && error.status !== 403) {
      throw new DomainError(
        "UPSTREAM_REJECTED",
        `The Marketing Automation Service did not answer the check${error.status ? ` (HTTP ${error.status})` : ""}, so the token could not be tested. Nothing was changed; syncs go on as before.`,
      );
    }
    const refused = refusedCredential(error);
    if (refused === "environment")
      throw environmentCredentialsRefused(location.environment, "The location's token could not be tested; nothing was changed.");
    ok = false;
    message = refused === "token" ? TOKEN_REFUSED_REASON : TOKEN_OR_ENVIRONMENT_REFUSED_REASON;
  } finally {
    await client.close();
  }
  return recordCheck(db, actor, location, { ok, message, now });
}

async function recordCheck(
  db: DatabaseOrTransaction,
  actor: OperationActor,
  location: LocationRow,
  check: { ok: boolean; message: string; now: Date; reason?: string },
): Promise<ConnectionCheck> {
  const { ok, message, now } = check;
  const row = await db.transaction(async (tx) => {
    // Only about the token tested: a reconnect or disconnect meanwhile replaced it, and its location is not this check's.
    const [updated] = await tx
      .update(locations)
      .set({
        lastCheckedAt: now,
        lastCheckOk: ok,
        ...(ok ? connectionAttentionCleared : connectionAttention(message, now)),
      })
      .where(and(eq(locations.id, location.id), eq(locations.locationTokenEncrypted, location.locationTokenEncrypted!)))
      .returning();
    if (!updated) return null;
    await recordAuditEvent(tx, {
      actor,
      action: "location.connection_tested",
      target: { type: "location", id: location.id, label: location.name },
      details: { ok, ...(check.reason && { reason: check.reason }) },
    });
    return updated;
  });
  if (!row)
    return { ok: false, message: TOKEN_CHANGED_DURING_TEST, location: locationShownTo(actor, toLocationView(await getLocationRow(db, location.id))) };
  return { ok, message, location: locationShownTo(actor, toLocationView(row)) };
}

import { and, eq, isNotNull, ne, or, isNull, sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locations } from "@/db/schema";
import { locationTokenContext } from "@/lib/crypto/encrypted-columns";
import { openSecret, sealSecret, SecretBoxError } from "@/lib/crypto/secret-box";
import { DomainError } from "@/lib/errors/domain-error";
import { upstreamSessionOpenHere } from "@/lib/sync/open-upstream-session";
import { connectionAttention } from "./connection-attention";
import type { LocationRow } from "./get-location";

/** What a location shows when its token was issued by another address than its environment's base URL now names. */
export const ADDRESS_CHANGED_REASON =
  "Reconnect needed: the service address changed. Its owner reconnects the location, or an admin confirms under Settings → Environments that the service itself moved.";

/** scheme://host[:port] as browsers compare origins: lower-case host, default port dropped. */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** The environment's base URL no longer names the origin that issued the token: nothing may be sent with it. */
export class TokenOriginChangedError extends DomainError {
  constructor() {
    super("CONFLICT", ADDRESS_CHANGED_REASON);
    this.name = "TokenOriginChangedError";
  }
}

export const TOKEN_UNREADABLE_REASON =
  "This location's token cannot be decrypted with the current encryption keys, so nothing was sent. Its owner reconnects the location.";

/** The token was sealed under a key the keyring no longer holds (docs/security.md, "lost key"): only a reconnect helps. */
export class TokenUnreadableError extends DomainError {
  constructor() {
    super("CONFLICT", TOKEN_UNREADABLE_REASON);
    this.name = "TokenUnreadableError";
  }
}

export function sealLocationToken(locationId: string, token: string): string {
  return sealSecret(token, locationTokenContext(locationId));
}

/**
 * The plaintext Location Access Token, for an upstream call to `environment.baseUrl` in this process only. A token
 * goes only to the origin that issued it: after a base-URL change it is refused before anything is sent.
 */
export function openLocationToken(
  row: Pick<LocationRow, "id" | "locationTokenEncrypted" | "locationTokenOrigin">,
  environment: { baseUrl: string },
): string {
  if (!row.locationTokenEncrypted) throw new DomainError("CONFLICT", "This location is not connected: its owner connects it first.");
  if (row.locationTokenOrigin !== originOf(environment.baseUrl)) throw new TokenOriginChangedError();
  try {
    return openSecret(row.locationTokenEncrypted, locationTokenContext(row.id));
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    console.warn(`[secrets] ${error.message}`);
    throw new TokenUnreadableError();
  }
}

/**
 * After an environment's base URL changed: its connected locations whose token another origin issued need
 * reconnecting (a sync session's attention stays: connection-attention.ts); those whose origin it names again are usable
 * again. Returns how many need reconnecting.
 */
export async function markTokensAgainstOrigin(
  db: DatabaseOrTransaction,
  environment: LocationRow["environment"],
  origin: string,
  now = new Date(),
): Promise<number> {
  const connected = and(eq(locations.environment, environment), isNotNull(locations.locationTokenEncrypted));
  const stale = await db
    .update(locations)
    .set({ ...connectionAttention(ADDRESS_CHANGED_REASON, now), updatedAt: now })
    .where(and(connected, or(isNull(locations.locationTokenOrigin), ne(locations.locationTokenOrigin, origin))))
    .returning({ id: locations.id });
  await db
    .update(locations)
    .set({ attentionReason: null, attentionSince: null, updatedAt: now })
    .where(and(connected, eq(locations.locationTokenOrigin, origin), eq(locations.attentionReason, ADDRESS_CHANGED_REASON)));
  return stale.length;
}

/**
 * Marks one location whose token cannot be used: refused for its origin (a use raced a base-URL change, or it predates
 * the check), or unreadable. The sync engine calls it after a session failed on it: reconnecting replaces the
 * session's "Resume it", since resuming cannot help, but not a reason that says an upstream session is still open.
 */
export async function markReconnectNeeded(
  db: DatabaseOrTransaction,
  locationId: string,
  reason: TokenOriginChangedError | TokenUnreadableError,
  now = new Date(),
): Promise<void> {
  await db
    .update(locations)
    .set({
      attentionReason: reason.message,
      attentionSince: sql`coalesce(${locations.attentionSince}, ${now.toISOString()}::timestamptz)`,
      updatedAt: now,
    })
    .where(and(eq(locations.id, locationId), sql`not ${upstreamSessionOpenHere(locationId)}`));
}

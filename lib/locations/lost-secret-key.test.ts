import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { environments, locations, syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { environmentSecretContext, locationTokenContext } from "@/lib/crypto/encrypted-columns";
import { parseSecretKey, type Keyring } from "@/lib/crypto/keyring";
import { sealSecret } from "@/lib/crypto/secret-box";
import { testEnvironmentCredentials } from "@/lib/environments/test-environment-credentials";
import { DomainError } from "@/lib/errors/domain-error";
import { problemFromError } from "@/lib/http/problem";
import { systemContext } from "@/lib/operations/context";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { closeUpstreamSession } from "@/lib/sync/close-upstream-session";
import { requestSyncSession } from "@/lib/sync/request-session";
import { runSession, type RunSessionOptions } from "@/lib/sync/run-session";
import { sampleNow, sampleSourceRows } from "@/lib/sync/testing/sample-source";
import { createConnectedLocation, noWaits, sandboxRequests, useSyncSandbox } from "@/lib/sync/testing/sync-test-setup";
import { connectionActors } from "./testing/connection-test-setup";
import { connectLocation } from "./connect-location";
import { readLocation } from "./get-location";
import { TOKEN_UNREADABLE_REASON } from "./location-token";
import { testConnection } from "./test-connection";

// The documented "lost key" case (docs/security.md): a secret sealed under a key the keyring no longer holds. Every
// operation that needs it answers a problem naming the secret and who enters it again, never an unhandled error (500).
const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
const { admin, support, pointStagingAt } = connectionActors(db, setup);

// The admin enters the environment's secrets again.
afterEach(() => pointStagingAt(setup.sandbox.apiBaseUrl));

const lostKeyring = (): Keyring => ({ current: parseSecretKey(randomBytes(32).toString("base64"), "test"), previous: [], source: "environment" });

const options: RunSessionOptions = {
  reader: createArraySourceReader(sampleSourceRows()),
  now: sampleNow,
  client: noWaits,
  config: { stepBackoffMs: 0, stepAttempts: 1 },
};

async function loseLocationToken(locationId: string) {
  const sealed = sealSecret("some-token", locationTokenContext(locationId), lostKeyring());
  await db.update(locations).set({ locationTokenEncrypted: sealed }).where(eq(locations.id, locationId));
}

async function loseEnvironmentSecret(field: "apiKey" | "clientSecret") {
  const sealed = sealSecret("some-secret", environmentSecretContext[field]("staging"), lostKeyring());
  await db
    .update(environments)
    .set(field === "apiKey" ? { apiKeyEncrypted: sealed } : { clientSecretEncrypted: sealed })
    .where(eq(environments.name, "staging"));
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

async function syncOnce(locationId: string) {
  const requested = await requestSyncSession(systemContext(db), { locationId, trigger: "manual", requestedByEmail: null });
  const result = await runSession(systemContext(db), { sessionId: requested.sessionId!, ...options });
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
  return { result, session: session! };
}

describe("a location token sealed under a lost key", () => {
  it("Test connection sends nothing, records a failed check and says the owner reconnects", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await loseLocationToken(location.id);
    const before = await sandboxRequests(db, location.upstreamLocationId);
    const check = await testConnection({ db, actor: support() }, { locationId: location.id });
    expect(check).toMatchObject({
      ok: false,
      message: TOKEN_UNREADABLE_REASON,
      location: { attentionReason: TOKEN_UNREADABLE_REASON, lastCheckOk: false },
    });
    expect(TOKEN_UNREADABLE_REASON).toMatch(/cannot be decrypted.*owner reconnects/);
    expect(await sandboxRequests(db, location.upstreamLocationId)).toEqual(before);

    // Reconnecting replaces the token: the location works again.
    await connectLocation(
      { db, actor: support(), upstreamClient: noWaits },
      { locationId: location.id, email: setup.fixture.owner.email, password: setup.fixture.owner.password },
    );
    expect(await testConnection({ db, actor: support() }, { locationId: location.id })).toMatchObject({
      ok: true,
      location: { attentionReason: null },
    });
  });

  it("a sync fails before sending anything, with the reason, and the location says to reconnect", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await loseLocationToken(location.id);
    const before = await sandboxRequests(db, location.upstreamLocationId);
    const { result, session } = await syncOnce(location.id);
    expect(result).toBe("failed");
    expect(session.error).toBe(TOKEN_UNREADABLE_REASON);
    expect((await readLocation({ db, actor: support() }, { locationId: location.id })).attentionReason).toBe(TOKEN_UNREADABLE_REASON);
    expect(await sandboxRequests(db, location.upstreamLocationId)).toEqual(before);
  });
});

describe("an environment secret sealed under a lost key", () => {
  for (const [field, label] of [
    ["apiKey", "API key"],
    ["clientSecret", "client secret"],
  ] as const) {
    it(`connect answers 409 naming the ${label} and who enters it again`, async () => {
      const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
      await loseEnvironmentSecret(field);
      const error = await failure(
        connectLocation(
          { db, actor: support(), upstreamClient: noWaits },
          { locationId: location.id, email: setup.fixture.owner.email, password: setup.fixture.owner.password },
        ),
      );
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: "NOT_CONFIGURED", fields: [{ field }] });
      expect((error as Error).message).toMatch(new RegExp(`staging environment's ${label} cannot be decrypted.*An admin enters it again`));
      expect(problemFromError(error).status).toBe(409);
    });
  }

  it("Test connection, a sync, Close upstream session and Test credentials answer the same problem (409), not a 500", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await loseEnvironmentSecret("apiKey");
    const notConfigured = { code: "NOT_CONFIGURED", message: expect.stringContaining("API key cannot be decrypted") };

    const checking = await failure(testConnection({ db, actor: support() }, { locationId: location.id }));
    expect(checking).toMatchObject(notConfigured);
    expect(problemFromError(checking).status).toBe(409);

    const { result, session } = await syncOnce(location.id);
    expect(result).toBe("failed");
    expect(session.error).toContain("API key cannot be decrypted");

    await db.update(syncSessions).set({ upstreamOpen: true }).where(eq(syncSessions.id, session.id));
    const closing = await failure(closeUpstreamSession({ db, actor: support(), upstreamClient: noWaits }, { sessionId: session.id }));
    await db.update(syncSessions).set({ upstreamOpen: false }).where(eq(syncSessions.id, session.id));
    expect(closing).toMatchObject(notConfigured);
    expect(problemFromError(closing).status).toBe(409);

    const testing = await failure(
      testEnvironmentCredentials({ db, actor: admin }, { name: "staging", email: setup.fixture.owner.email, password: setup.fixture.owner.password }),
    );
    expect(testing).toMatchObject(notConfigured);
  });
});

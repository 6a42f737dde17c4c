import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { locations, sandboxAccessTokens } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { DomainError } from "@/lib/errors/domain-error";
import { problemFromError } from "@/lib/http/problem";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { createSandboxLocation } from "@/lib/sandbox/provision";
import { noWaits, useSyncSandbox } from "@/lib/sync/testing/sync-test-setup";
import { connectionActors, useSecondAddress } from "./testing/connection-test-setup";
import { connectLocation } from "./connect-location";
import { readLocation } from "./get-location";
import { disconnectLocation } from "./disconnect-location";
import { TOKEN_CHANGED_DURING_TEST, testConnection } from "./test-connection";

// Connection actions racing each other or an admin's change, over real HTTP: the sandbox holds GET /users/me with a
// delay so the other change lands between the action's first read and its write.
const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
const { support, pointStagingAt } = connectionActors(db, setup);
const second = useSecondAddress(setup.sandbox.apiBaseUrl);
afterEach(async () => {
  await clearFaults(db);
  await pointStagingAt(setup.sandbox.apiBaseUrl, { tokensMoveToNewAddress: true });
});

async function newLocation() {
  const upstreamLocationId = await createSandboxLocation(db, { ownerId: setup.fixture.owner.id });
  const [row] = await db
    .insert(locations)
    .values({ name: `Salon ${Math.random()}`, environment: "staging", upstreamLocationId, timeZone: "Europe/Berlin", country: "DE" })
    .returning();
  return row!;
}

const connect = (locationId: string) =>
  connectLocation(
    { db, actor: support(), upstreamClient: noWaits },
    { locationId, email: setup.fixture.owner.email, password: setup.fixture.owner.password },
  );

const settled = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => value,
    (error: unknown) => error,
  );

const shown = (locationId: string) => readLocation({ db, actor: support() }, { locationId });

describe("a connect racing a change of the environment's base URL", () => {
  async function connectWhile(change: () => Promise<unknown>) {
    const location = await newLocation();
    await injectFault(db, { target: "users_me", mode: { kind: "delay", ms: 1500 }, count: 1 });
    const connecting = settled(connect(location.id));
    await new Promise((resolve) => setTimeout(resolve, 700));
    await change();
    return { location, outcome: await connecting };
  }

  for (const [name, confirmed] of [
    ["a new address", false],
    ["'the service moved' (confirmed)", true],
  ] as const) {
    it(`${name}: the connect is refused (409, connect again) and stores no token`, async () => {
      const { location, outcome } = await connectWhile(() => pointStagingAt(second().url, { tokensMoveToNewAddress: confirmed }));
      expect(outcome).toBeInstanceOf(DomainError);
      expect(outcome).toMatchObject({ code: "CONFLICT", message: expect.stringContaining("Connect again") });
      expect(problemFromError(outcome).status).toBe(409);
      expect(await shown(location.id)).toMatchObject({ connected: false, attentionReason: null });

      // Connecting again gets a token from the new address, which it goes to.
      second().exchanges.length = 0;
      expect(await connect(location.id)).toMatchObject({ connected: true, attentionReason: null, lastCheckOk: true });
      expect(await testConnection({ db, actor: support() }, { locationId: location.id })).toMatchObject({ ok: true });
      expect(second().exchanges.filter((exchange) => exchange.path === "/v1/users/me")).toHaveLength(2);
    });
  }
});

describe("Test connection racing a reconnect", () => {
  it("the refusal of the old token leaves the freshly reconnected location alone and says the token changed", async () => {
    const location = await newLocation();
    await connect(location.id);
    // The owner changed their password upstream: the stored token no longer works, and they reconnect.
    await db.update(sandboxAccessTokens).set({ revokedAt: new Date() }).where(eq(sandboxAccessTokens.locationId, location.upstreamLocationId!));
    await injectFault(db, { target: "users_me", mode: { kind: "delay", ms: 1500 }, count: 1 });
    const checking = testConnection({ db, actor: support() }, { locationId: location.id });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await connect(location.id)).toMatchObject({ connected: true, attentionReason: null, lastCheckOk: true });

    const check = await checking;
    expect(check).toMatchObject({ ok: false, message: TOKEN_CHANGED_DURING_TEST, location: { attentionReason: null, lastCheckOk: true } });
    expect(await shown(location.id)).toMatchObject({ connected: true, attentionReason: null, lastCheckOk: true });
    expect(await testConnection({ db, actor: support() }, { locationId: location.id })).toMatchObject({ ok: true });
  });

  it("a disconnect during the check: nothing is recorded on the disconnected location", async () => {
    const location = await newLocation();
    await connect(location.id);
    await db.update(sandboxAccessTokens).set({ revokedAt: new Date() }).where(eq(sandboxAccessTokens.locationId, location.upstreamLocationId!));
    await injectFault(db, { target: "users_me", mode: { kind: "delay", ms: 1500 }, count: 1 });
    const checking = testConnection({ db, actor: support() }, { locationId: location.id });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await disconnectLocation({ db, actor: support() }, { locationId: location.id });

    expect(await checking).toMatchObject({ ok: false, message: TOKEN_CHANGED_DURING_TEST });
    expect(await shown(location.id)).toMatchObject({ connected: false, attentionReason: null, lastCheckedAt: null });
  });
});

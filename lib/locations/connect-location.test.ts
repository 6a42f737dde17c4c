import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { auditLog, locations, sandboxAccessTokens } from "@/db/schema";
import { databaseAsText } from "@/db/testing/database-text";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemActorAs } from "@/lib/auth/permissions";
import { isSealedSecret } from "@/lib/crypto/secret-box";
import { pointEnvironmentAtSandbox } from "@/lib/environments/point-at-sandbox";
import { DomainError } from "@/lib/errors/domain-error";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { setSandboxResponseShape } from "@/lib/sandbox/provision";
import { sandboxResponseShapes } from "@/lib/sandbox/response-shapes";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { createSandboxFixture, createSandboxHttp, type SandboxFixture } from "@/lib/sandbox/testing";
import { startRecordingProxy, type RecordingProxy } from "@/lib/upstream/testing/recording-proxy";
import { archiveLocation } from "./archive-location";
import { connectLimits, connectLocation } from "./connect-location";
import { disconnectLocation } from "./disconnect-location";
import { getLocationRow } from "./get-location";
import { openLocationToken } from "./location-token";
import { TOKEN_REFUSED_REASON, testConnection } from "./test-connection";

// The owner token flow against the sandbox over real HTTP, through a proxy that keeps what crossed the wire.
const testDb = await useTestDatabase();
const db = testDb.db;
let sandbox: SandboxServer;
let proxy: RecordingProxy;
let fixture: SandboxFixture;
let address = 0;
const noWaits = { retryRuntime: { random: () => 0, sleep: async () => {} } };

const actorFor = () => systemActorAs("support@example.test", `198.51.100.${++address}`);

async function pointStagingAt(apiBaseUrl: string, overrides: { clientSecret?: string } = {}) {
  const credentials = { ...fixture, ...overrides };
  await pointEnvironmentAtSandbox({ db, actor: systemActor }, { name: "staging", apiBaseUrl, uploadOrigin: sandbox.uploadOrigin, credentials });
}

async function addLocation(values: Partial<typeof locations.$inferInsert> = {}) {
  const [row] = await db
    .insert(locations)
    .values({ name: `Salon ${Math.random()}`, environment: "staging", upstreamLocationId: fixture.locationId, timeZone: "Europe/Berlin", ...values })
    .returning();
  return row!;
}

async function connectError(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

beforeAll(async () => {
  sandbox = await startSandboxServer({ db });
  proxy = await startRecordingProxy(sandbox.apiBaseUrl);
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});
beforeEach(async () => {
  fixture = await createSandboxFixture(db);
  await pointStagingAt(proxy.url);
  proxy.exchanges.length = 0;
});
afterEach(() => vi.restoreAllMocks());

describe("connect", () => {
  it("stores only the sealed Location Access Token; the password and the user token are nowhere", async () => {
    const logged: string[] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    }
    const location = await addLocation();
    const actor = actorFor();
    const view = await connectLocation({ db, actor }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password });

    expect(view).toMatchObject({ connected: true, connectedByEmail: actor.email, upstreamAccountEmail: fixture.owner.email, lastCheckOk: true });
    expect(proxy.exchanges.map((exchange) => `${exchange.method} ${exchange.path} ${exchange.status}`)).toEqual([
      "POST /v1/access_tokens 200",
      `POST /v1/access_tokens/locations/${fixture.locationId} 200`,
      "GET /v1/users/me 200",
    ]);
    const [userTokenExchange, locationTokenExchange] = proxy.exchanges;
    expect(JSON.parse(userTokenExchange!.requestBody)).toEqual({
      email: fixture.owner.email,
      password: fixture.owner.password,
      client_id: fixture.clientId,
      client_secret: fixture.clientSecret,
    });
    expect(JSON.parse(locationTokenExchange!.requestBody)).toEqual({ client_id: fixture.clientId, client_secret: fixture.clientSecret });
    const userToken = JSON.parse(userTokenExchange!.responseBody).access_token as string;
    const locationToken = JSON.parse(locationTokenExchange!.responseBody).access_token as string;
    expect(locationTokenExchange!.requestHeaders.authorization).toBe(`Bearer ${userToken}`);
    expect(proxy.exchanges[2]!.requestHeaders.authorization).toBe(`Bearer ${locationToken}`);

    const everything = await databaseAsText(db);
    const returned = JSON.stringify(view);
    for (const secret of [fixture.owner.password, userToken, locationToken]) {
      expect(everything).not.toContain(secret);
      expect(logged.join("\n")).not.toContain(secret);
      expect(returned).not.toContain(secret);
    }
    const row = await getLocationRow(db, location.id);
    expect(isSealedSecret(row.locationTokenEncrypted!)).toBe(true);
    expect(openLocationToken(row, { baseUrl: proxy.url })).toBe(locationToken);
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, location.id), eq(auditLog.action, "location.connected")));
    expect(audit).toMatchObject({ actorEmail: actor.email, clientAddress: actor.clientAddress });
  });

  it("a wrong password gets its message and stores nothing", async () => {
    const location = await addLocation();
    const error = await connectError(
      connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: "not-the-password" }),
    );
    expect(error.code).toBe("INVALID");
    expect(error.message).toBe("The email or password is wrong for the Marketing Automation Service account. Nothing was stored.");
    expect(error.fields).toEqual([{ field: "password", reason: "does not match this email at the Marketing Automation Service" }]);
    expect(await getLocationRow(db, location.id)).toMatchObject({ locationTokenEncrypted: null, connectedAt: null, upstreamAccountEmail: null });
    expect(proxy.exchanges).toHaveLength(1);
  });

  it("refuses an account that does not own the location, with its message", async () => {
    const location = await addLocation();
    const error = await connectError(
      connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.stranger.email, password: fixture.stranger.password }),
    );
    expect(error.message).toBe(
      `That account does not own location “${fixture.locationId}” at the Marketing Automation Service. Nothing was stored. Sign in with the account of the location's owner.`,
    );
    expect((await getLocationRow(db, location.id)).locationTokenEncrypted).toBeNull();
  });

  it("names an upstream location id the service does not know", async () => {
    const location = await addLocation({ upstreamLocationId: "no-such-location" });
    const error = await connectError(
      connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password }),
    );
    expect(error.code).toBe("CONFLICT");
    expect(error.message).toContain("has no location with ID “no-such-location”");
  });

  it("says the environment is not configured, and calls nothing", async () => {
    const location = await addLocation({ environment: "production" });
    const error = await connectError(
      connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password }),
    );
    expect(error.code).toBe("NOT_CONFIGURED");
    expect(error.message).toContain("The production environment is not configured");
    expect(proxy.exchanges).toHaveLength(0);
  });

  it("says the environment's own credentials were refused", async () => {
    await pointStagingAt(proxy.url, { clientSecret: "not-the-client-secret" });
    const location = await addLocation();
    const error = await connectError(
      connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password }),
    );
    expect(error.code).toBe("NOT_CONFIGURED");
    expect(error.message).toContain("refused the staging environment's API key or client credentials");
  });

  it("tells the user to retry later when the upstream cannot be reached", async () => {
    const closed = await startRecordingProxy(sandbox.apiBaseUrl);
    await closed.close();
    await pointStagingAt(closed.url);
    const location = await addLocation();
    const error = await connectError(
      connectLocation(
        { db, actor: actorFor(), upstreamClient: noWaits },
        { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password },
      ),
    );
    expect(error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(error.message).toContain("could not be reached. Nothing was changed. Try again in a few minutes");
  });

  it("an archive that lands while the owner's token flow runs wins: the connect is refused and the archived location holds no token", async () => {
    const location = await addLocation();
    // The check of the new token waits, so the archive lands between the connect's first read and its write.
    await injectFault(db, { target: "users_me", mode: { kind: "delay", ms: 1500 }, count: 1 });
    try {
      const connecting = connectLocation(
        { db, actor: actorFor() },
        { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password },
      ).then(
        () => null,
        (error: unknown) => error,
      );
      await vi.waitFor(() => expect(proxy.exchanges).toHaveLength(2), { timeout: 10_000, interval: 20 });
      await archiveLocation({ db, actor: actorFor() }, { locationId: location.id });
      expect(await connecting).toMatchObject({ code: "CONFLICT" });
    } finally {
      await clearFaults(db);
    }
    const row = await getLocationRow(db, location.id);
    expect(row.archivedAt).not.toBeNull();
    expect(row.locationTokenEncrypted).toBeNull();
  });

  it("reconnect replaces the token; disconnect deletes it; both are audited", async () => {
    const location = await addLocation();
    await connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password });
    const first = (await getLocationRow(db, location.id)).locationTokenEncrypted;
    await connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password });
    const second = await getLocationRow(db, location.id);
    expect(second.locationTokenEncrypted).not.toBe(first);
    const disconnected = await disconnectLocation({ db, actor: actorFor() }, { locationId: location.id });
    expect(disconnected).toMatchObject({ connected: false, connectedAt: null, upstreamAccountEmail: null });
    expect((await getLocationRow(db, location.id)).locationTokenEncrypted).toBeNull();
    const actions = (await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, location.id)).orderBy(auditLog.id)).map(
      (row) => row.action,
    );
    expect(actions).toEqual(["location.connected", "location.reconnected", "location.disconnected"]);
  });
});

describe("throttling", () => {
  it("refuses the attempt past the per-location limit without calling the upstream", async () => {
    const location = await addLocation();
    for (let attempt = 0; attempt < connectLimits.perLocation.limit; attempt++) {
      await connectError(connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: "wrong" }));
    }
    const calls = proxy.exchanges.length;
    expect(calls).toBe(connectLimits.perLocation.limit);
    const error = await connectError(
      connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password }),
    );
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.message).toMatch(
      /^Too many connection attempts\. Nothing was sent to the Marketing Automation Service\. Try again in \d+ minutes?\.$/,
    );
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(proxy.exchanges).toHaveLength(calls);
  });

  it("refuses the attempt past the per-address limit, across locations", async () => {
    const actor = actorFor();
    for (let attempt = 0; attempt < connectLimits.perAddress.limit; attempt++) {
      const location = await addLocation({ upstreamLocationId: `unknown-${attempt}` });
      await connectError(connectLocation({ db, actor }, { locationId: location.id, email: fixture.owner.email, password: "wrong" }));
    }
    const calls = proxy.exchanges.length;
    const location = await addLocation();
    const error = await connectError(
      connectLocation({ db, actor }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password }),
    );
    expect(error.code).toBe("RATE_LIMITED");
    expect(proxy.exchanges).toHaveLength(calls);
  });

  it("lets at most the per-location limit of parallel attempts reach the upstream; the refused ones use up nothing", async () => {
    const actor = actorFor();
    const stormed = await addLocation({ upstreamLocationId: "unknown-stormed" });
    const before = proxy.exchanges.length;
    const attempts = Array.from({ length: 25 }, () =>
      connectLocation({ db, actor, upstreamClient: noWaits }, { locationId: stormed.id, email: fixture.owner.email, password: "wrong" }).then(
        () => "connected",
        (error: DomainError) => error.code,
      ),
    );
    const codes = await Promise.all(attempts);
    expect(codes.filter((code) => code === "RATE_LIMITED")).toHaveLength(25 - connectLimits.perLocation.limit);
    // A wrong password is refused on the first exchange: one exchange per attempt that got through.
    expect(proxy.exchanges.length - before).toBe(connectLimits.perLocation.limit);
    // The same address may still try another location: only the attempts that got through count against it.
    const other = await addLocation({ upstreamLocationId: "unknown-other" });
    const next = await connectError(
      connectLocation({ db, actor, upstreamClient: noWaits }, { locationId: other.id, email: fixture.owner.email, password: "wrong" }),
    );
    expect(next.code).not.toBe("RATE_LIMITED");
  });
});

describe("test connection", () => {
  it("confirms a working token and flags a refused one as needing attention", async () => {
    const location = await addLocation();
    await connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password });
    const working = await testConnection({ db, actor: actorFor() }, { locationId: location.id });
    expect(working).toMatchObject({ ok: true, message: `Connected: the token acts as ${fixture.owner.email}.` });

    await db.update(sandboxAccessTokens).set({ revokedAt: new Date() }).where(eq(sandboxAccessTokens.locationId, fixture.locationId));
    const refused = await testConnection({ db, actor: actorFor() }, { locationId: location.id });
    expect(refused).toMatchObject({
      ok: false,
      message: TOKEN_REFUSED_REASON,
      location: { lastCheckOk: false, attentionReason: TOKEN_REFUSED_REASON },
    });

    await connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password });
    expect(await getLocationRow(db, location.id)).toMatchObject({ attentionReason: null, lastCheckOk: true });
  });

  // The spec shows the path of GET /users/me, not its answers: the connection is the spec's two token calls.
  it.each([404, 405, 500] as const)("connects whatever GET /users/me answers (%i); Test connection then says it could not check", async (status) => {
    const location = await addLocation();
    await injectFault(db, { target: "users_me", mode: { kind: "status", status }, count: 10 });
    try {
      const view = await connectLocation(
        { db, actor: actorFor(), upstreamClient: noWaits },
        { locationId: location.id, email: fixture.owner.email.toUpperCase(), password: fixture.owner.password },
      );
      // Stored, and not called checked: nothing confirmed the token.
      expect(view).toMatchObject({
        connected: true,
        upstreamAccountEmail: fixture.owner.email.toLowerCase(),
        lastCheckOk: null,
        lastCheckedAt: null,
      });
      expect(proxy.exchanges.slice(0, 3).map((exchange) => `${exchange.method} ${exchange.path} ${exchange.status}`)).toEqual([
        "POST /v1/access_tokens 200",
        `POST /v1/access_tokens/locations/${fixture.locationId} 200`,
        `GET /v1/users/me ${status}`,
      ]);
      const before = await getLocationRow(db, location.id);
      const error = await connectError(testConnection({ db, actor: actorFor(), upstreamClient: noWaits }, { locationId: location.id }));
      expect(error.code).toBe(status === 500 ? "UPSTREAM_UNAVAILABLE" : "UPSTREAM_REJECTED");
      expect(error.message).toContain("Nothing was changed");
      expect(await getLocationRow(db, location.id)).toMatchObject({ lastCheckOk: null, attentionReason: null, lastCheckedAt: before.lastCheckedAt });
    } finally {
      await clearFaults(db);
    }
    const row = await getLocationRow(db, location.id);
    expect(openLocationToken(row, { baseUrl: proxy.url })).toBeTruthy();
  });

  it("refuses to test a location that is not connected", async () => {
    const location = await addLocation();
    const error = await connectError(testConnection({ db, actor: actorFor() }, { locationId: location.id }));
    expect(error.code).toBe("CONFLICT");
  });

  it("the stored token works for the sandbox's own check", async () => {
    const location = await addLocation();
    await connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password });
    const http = createSandboxHttp(sandbox.apiBaseUrl, fixture.apiKey);
    const me = await http.call("GET", "/users/me", { token: openLocationToken(await getLocationRow(db, location.id), { baseUrl: proxy.url }) });
    expect(me.json).toMatchObject({ email: fixture.owner.email, location_id: fixture.locationId });
  });
});

describe("users/me answers in any shape (the spec shows no body)", () => {
  it.each(sandboxResponseShapes)("%s: connect and Test connection succeed, naming the account only when the body does", async (responseShape) => {
    await setSandboxResponseShape(db, { environmentId: fixture.environmentId, responseShape });
    const location = await addLocation();
    const view = await connectLocation(
      { db, actor: actorFor() },
      { locationId: location.id, email: ` ${fixture.owner.email.toUpperCase()} `, password: fixture.owner.password },
    );
    // Without a readable e-mail in the body, the account is the e-mail the owner typed.
    expect(view).toMatchObject({ connected: true, lastCheckOk: true, upstreamAccountEmail: fixture.owner.email });
    expect(proxy.exchanges.at(-1)).toMatchObject({ path: "/v1/users/me", status: responseShape === "no_content" ? 204 : 200 });

    const check = await testConnection({ db, actor: actorFor() }, { locationId: location.id });
    const named = responseShape === "documented" || responseShape === "extra";
    expect(check).toMatchObject({
      ok: true,
      message: named ? `Connected: the token acts as ${fixture.owner.email}.` : "Connected.",
      location: { lastCheckOk: true },
    });
  });
});

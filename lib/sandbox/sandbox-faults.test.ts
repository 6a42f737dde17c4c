import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { parseConfig } from "@/lib/config/config";
import { areFaultsEnabled, isProductionMode } from "./fault-policy";
import { clearFaults, injectFault } from "./faults";
import { startSandboxServer, type SandboxServer } from "./server";
import { createSandboxFixture, createSandboxHttp, putUpload, type SandboxFixture } from "./testing";

const testDb = await useTestDatabase();
let server: SandboxServer;
let fixture: SandboxFixture;
let http: ReturnType<typeof createSandboxHttp>;
let token: string;

beforeAll(async () => {
  server = await startSandboxServer({ db: testDb.db, faultsEnabled: true });
  fixture = await createSandboxFixture(testDb.db);
  http = createSandboxHttp(server.apiBaseUrl, fixture.apiKey);
  token = await http.userToken(fixture.owner.email, fixture.owner.password, fixture.clientId, fixture.clientSecret);
});
afterAll(() => server.close());
beforeEach(() => clearFaults(testDb.db));

const me = () => http.call("GET", "/users/me", { token });
const openUploadAddress = async () => {
  await http.call("PUT", `/locations/${fixture.locationId}/update_management_system`, {
    token,
    body: { management_system: fixture.dataSourceName, management_system_sync_in_progress: true },
  });
  const result = await http.call("POST", `/locations/${fixture.locationId}/contact_details/batch_create_or_update`, { token, body: {} });
  return result.json.put_data_url as string;
};

describe("fault injection", () => {
  test("answers the next N requests of an endpoint with the injected status, then recovers", async () => {
    await injectFault(testDb.db, { target: "users_me", mode: { kind: "status", status: 503 }, count: 2 });
    expect((await me()).status).toBe(503);
    const second = await me();
    expect(second.status).toBe(503);
    expect(second.json.error.code).toBe("injected_fault");
    expect((await me()).status).toBe(200);
  });

  test("consumes a counted fault exactly once under concurrent requests", async () => {
    await injectFault(testDb.db, { target: "users_me", mode: { kind: "status", status: 500 }, count: 2 });
    const statuses = await Promise.all(Array.from({ length: 6 }, () => me().then((result) => result.status)));
    expect(statuses.filter((status) => status === 500)).toHaveLength(2);
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
  });

  test("leaves other endpoints alone", async () => {
    await injectFault(testDb.db, { target: "access_tokens", mode: { kind: "status", status: 500 }, count: 1 });
    expect((await me()).status).toBe(200);
  });

  test("answers 429 with Retry-After", async () => {
    await injectFault(testDb.db, { target: "users_me", mode: { kind: "rate-limit", retryAfterSeconds: 7 }, count: 1 });
    const result = await me();
    expect(result.status).toBe(429);
    expect(result.headers.get("retry-after")).toBe("7");
    expect(result.json.error.code).toBe("rate_limited");
  });

  test("delays the answer past a client's timeout", async () => {
    await injectFault(testDb.db, { target: "users_me", mode: { kind: "delay", ms: 1500 }, count: 1 });
    await expect(
      fetch(`${server.apiBaseUrl}/v1/users/me`, {
        headers: { "x-api-key": fixture.apiKey, authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(300),
      }),
    ).rejects.toThrow(/abort|timeout/i);
  });

  test("a delayed answer is the normal answer once it comes", async () => {
    await injectFault(testDb.db, { target: "users_me", mode: { kind: "delay", ms: 200 }, count: 1 });
    const started = Date.now();
    const result = await me();
    expect(result.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  test("resets the connection in the middle of the response body", async () => {
    await injectFault(testDb.db, { target: "users_me", mode: { kind: "reset" }, count: 1 });
    await expect(me()).rejects.toThrow();
    expect((await me()).status).toBe(200);
  });

  test("resets the connection while an upload is being sent", async () => {
    const url = await openUploadAddress();
    await injectFault(testDb.db, { target: "upload", mode: { kind: "reset" }, count: 1 });
    const big = JSON.stringify(Array.from({ length: 20_000 }, (_, index) => ({ external_id: `c-${index}`, first_name: "Ada" })));
    await expect(putUpload(url, big)).rejects.toThrow();
  });

  test("an upload address survives an injected 5xx, so the client may retry it", async () => {
    const url = await openUploadAddress();
    await injectFault(testDb.db, { target: "upload", mode: { kind: "status", status: 502 }, count: 1 });
    expect((await putUpload(url, [{ external_id: "c-1" }])).status).toBe(502);
    expect((await putUpload(url, [{ external_id: "c-1" }])).status).toBe(200);
  });

  test("a seeded probability fails the same requests in every run", async () => {
    const run = async () => {
      await clearFaults(testDb.db);
      await injectFault(testDb.db, { target: "users_me", mode: { kind: "status", status: 500 }, probability: 0.5, seed: 42 });
      const statuses: number[] = [];
      for (let index = 0; index < 16; index += 1) statuses.push((await me()).status);
      return statuses;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(first).toContain(500);
    expect(first).toContain(200);
  });

  test("can be armed and cleared over HTTP", async () => {
    const armed = await fetch(`${server.apiBaseUrl}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": fixture.apiKey },
      body: JSON.stringify({ target: "users_me", mode: { kind: "status", status: 500 }, count: 5 }),
    });
    expect(armed.status).toBe(201);
    expect((await me()).status).toBe(500);
    await fetch(`${server.apiBaseUrl}/__sandbox/faults`, { method: "DELETE", headers: { "x-api-key": fixture.apiKey } });
    expect((await me()).status).toBe(200);
  });

  test("refuses an unknown fault target", async () => {
    const armed = await fetch(`${server.apiBaseUrl}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": fixture.apiKey },
      body: JSON.stringify({ target: "nope", mode: { kind: "status", status: 500 }, count: 1 }),
    });
    expect(armed.status).toBe(422);
  });
});

describe("fault policy", () => {
  test("a server with faults disabled has no control endpoint and ignores armed faults", async () => {
    const quiet = await startSandboxServer({ db: testDb.db, faultsEnabled: false });
    try {
      const quietHttp = createSandboxHttp(quiet.apiBaseUrl, fixture.apiKey);
      const armed = await fetch(`${quiet.apiBaseUrl}/__sandbox/faults`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": fixture.apiKey },
        body: JSON.stringify({ target: "users_me", mode: { kind: "status", status: 500 }, count: 1 }),
      });
      expect(armed.status).toBe(404);
      await injectFault(testDb.db, { target: "users_me", mode: { kind: "status", status: 500 }, count: 1 });
      expect((await quietHttp.call("GET", "/users/me", { token })).status).toBe(200);
    } finally {
      await quiet.close();
    }
  });

  test("production mode turns faults off even when SANDBOX_FAULTS=on", () => {
    const production = { NODE_ENV: "production", DATABASE_URL: "postgres://db/app", SANDBOX_FAULTS: "on" };
    expect(isProductionMode(parseConfig(production))).toBe(true);
    expect(areFaultsEnabled(parseConfig(production))).toBe(false);
    expect(areFaultsEnabled(parseConfig({ NODE_ENV: "test" }))).toBe(true);
    expect(areFaultsEnabled(parseConfig({ NODE_ENV: "production" }))).toBe(false);
    expect(areFaultsEnabled(parseConfig({ NODE_ENV: "production", SANDBOX_FAULTS: "on" }))).toBe(true);
  });
});

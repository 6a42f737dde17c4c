import { afterAll, describe, expect, test } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { ensureSandboxDemo } from "./provision";
import { startSandboxServer, type SandboxServer } from "./server";
import { createSandboxFixture, createSandboxHttp, putUpload } from "./testing";

const testDb = await useTestDatabase();
const servers: SandboxServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close().catch(() => {});
});

describe("restart survival", () => {
  test("tokens, the open session and staged uploads survive a restart of the sandbox", async () => {
    const fixture = await createSandboxFixture(testDb.db);
    const first = await startSandboxServer({ databaseUrl: testDb.url });
    servers.push(first);
    let http = createSandboxHttp(first.apiBaseUrl, fixture.apiKey);
    const userToken = await http.userToken(fixture.owner.email, fixture.owner.password, fixture.clientId, fixture.clientSecret);
    const token = await http.locationToken(userToken, fixture.locationId, fixture.clientId, fixture.clientSecret);
    const path = `/locations/${fixture.locationId}`;
    const sync = (inProgress: boolean) =>
      http.call("PUT", `${path}/update_management_system`, {
        token,
        body: { management_system: fixture.dataSourceName, management_system_sync_in_progress: inProgress },
      });
    await sync(true);
    const url = (await http.call("POST", `${path}/contact_details/batch_create_or_update`, { token, body: {} })).json.put_data_url as string;
    expect((await putUpload(url, [{ external_id: "c-1", first_name: "Ada" }])).status).toBe(200);
    await first.close();

    const second = await startSandboxServer({ databaseUrl: testDb.url });
    servers.push(second);
    http = createSandboxHttp(second.apiBaseUrl, fixture.apiKey);
    expect((await http.call("GET", "/users/me", { token })).json.location_id).toBe(fixture.locationId);
    // Still in sync: a data-sync call is accepted without opening a new session.
    expect((await http.call("POST", `${path}/calendars/batch_sync_calendars`, { token, body: { data: [] } })).status).toBe(200);
    const closed = await sync(false);
    expect(closed.json.processed).toEqual({ contact_details: 1 });
  });
});

describe("demo provisioning", () => {
  test("is idempotent and its owner can sign in", async () => {
    const demo = await ensureSandboxDemo(testDb.db);
    expect(await ensureSandboxDemo(testDb.db)).toEqual(demo);
    const server = await startSandboxServer({ db: testDb.db });
    servers.push(server);
    const http = createSandboxHttp(server.apiBaseUrl, demo.apiKey);
    const owner = demo.owners[0]!;
    const token = await http.userToken(owner.email, owner.password, demo.clientId, demo.clientSecret);
    await expect(http.locationToken(token, owner.locationIds[0]!, demo.clientId, demo.clientSecret)).resolves.toEqual(expect.any(String));
    const stranger = demo.strangers[0]!;
    const strangerToken = await http.userToken(stranger.email, stranger.password, demo.clientId, demo.clientSecret);
    await expect(http.locationToken(strangerToken, owner.locationIds[0]!, demo.clientId, demo.clientSecret)).rejects.toThrow(/403/);
  });
});

describe("count-only mode", () => {
  test("counts upload records and bytes without validating or storing them", async () => {
    const fixture = await createSandboxFixture(testDb.db);
    const server = await startSandboxServer({ db: testDb.db, countOnly: true });
    servers.push(server);
    const http = createSandboxHttp(server.apiBaseUrl, fixture.apiKey);
    const userToken = await http.userToken(fixture.owner.email, fixture.owner.password, fixture.clientId, fixture.clientSecret);
    const path = `/locations/${fixture.locationId}`;
    await http.call("PUT", `${path}/update_management_system`, {
      token: userToken,
      body: { management_system: fixture.dataSourceName, management_system_sync_in_progress: true },
    });
    const url = (await http.call("POST", `${path}/contact_details/batch_create_or_update`, { token: userToken, body: {} })).json
      .put_data_url as string;
    const body = JSON.stringify([{ nonsense: true }, 1, "two"]);
    const result = await putUpload(url, body);
    expect(result.status).toBe(200);
    expect(result.json.received).toBe(3);
    const notArray = await putUpload(
      (await http.call("POST", `${path}/contact_details/batch_create_or_update`, { token: userToken, body: {} })).json.put_data_url as string,
      "{}",
    );
    expect(notArray.status).toBe(400);
    const stats = await fetch(`${server.apiBaseUrl}/__sandbox/stats`, { headers: { "x-api-key": fixture.apiKey } }).then((r) => r.json());
    expect(stats).toEqual({ uploads: 1, records: 3, bytes: Buffer.byteLength(body) });
    // The API keeps its key check.
    expect((await createSandboxHttp(server.apiBaseUrl, "wrong").call("GET", "/users/me", { token: userToken })).status).toBe(401);
  });
});

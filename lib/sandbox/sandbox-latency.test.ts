import { afterAll, describe, expect, test } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { startSandboxServer, type SandboxServer } from "./server";
import { createSandboxFixture, createSandboxHttp, putUpload } from "./testing";

const testDb = await useTestDatabase();
const servers: SandboxServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close().catch(() => {});
});

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

describe("upstream latency (benchmarks)", () => {
  test("every answer, of the API and of an upload address, is held at least the latency", async () => {
    const latencyMs = 200;
    const fixture = await createSandboxFixture(testDb.db);
    const server = await startSandboxServer({ db: testDb.db, latencyMs });
    servers.push(server);
    const http = createSandboxHttp(server.apiBaseUrl, fixture.apiKey);

    const userToken = await timed(() => http.userToken(fixture.owner.email, fixture.owner.password, fixture.clientId, fixture.clientSecret));
    expect(userToken.ms).toBeGreaterThanOrEqual(latencyMs);
    const token = await http.locationToken(userToken.value, fixture.locationId, fixture.clientId, fixture.clientSecret);
    const path = `/locations/${fixture.locationId}`;
    const opened = await timed(() =>
      http.call("PUT", `${path}/update_management_system`, {
        token,
        body: { management_system: fixture.dataSourceName, management_system_sync_in_progress: true },
      }),
    );
    expect(opened.value.status).toBe(200);
    expect(opened.ms).toBeGreaterThanOrEqual(latencyMs);
    const url = (await http.call("POST", `${path}/contact_details/batch_create_or_update`, { token, body: {} })).json.put_data_url as string;
    const upload = await timed(() => putUpload(url, [{ external_id: "c-1", first_name: "Ada" }]));
    expect(upload.value.status).toBe(200);
    expect(upload.ms).toBeGreaterThanOrEqual(latencyMs);
    // An error is held as long: the client waits the round trip whatever the answer.
    const refused = await timed(() => http.call("GET", "/users/me", { token: "not-a-token" }));
    expect(refused.value.status).toBe(401);
    expect(refused.ms).toBeGreaterThanOrEqual(latencyMs);
  });
});

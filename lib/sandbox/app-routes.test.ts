import { expect, test } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import * as apiRoute from "@/app/sandbox/api/[...path]/route";
import * as uploadRoute from "@/app/sandbox/uploads/[token]/route";
import { serveAppSandbox } from "./app-context";
import { injectFault, listFaults } from "./faults";
import { createSandboxFixture } from "./testing";

const testDb = await useTestDatabase();
const origin = "http://app.test";

// The route handlers are thin: the same core as the standalone server, under /sandbox/... of the app.
test("the app's route handlers serve the API under /sandbox/api and uploads under /sandbox/uploads", async () => {
  const fixture = await createSandboxFixture(testDb.db);
  const json = { "content-type": "application/json", "x-api-key": fixture.apiKey };
  const tokenResponse = await apiRoute.POST(
    new Request(`${origin}/sandbox/api/v1/access_tokens`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        email: fixture.owner.email,
        password: fixture.owner.password,
        client_id: fixture.clientId,
        client_secret: fixture.clientSecret,
      }),
    }),
  );
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const authorized = { ...json, authorization: `Bearer ${token}` };
  const location = `${origin}/sandbox/api/v1/locations/${fixture.locationId}`;
  await apiRoute.PUT(
    new Request(`${location}/update_management_system`, {
      method: "PUT",
      headers: authorized,
      body: JSON.stringify({ management_system: fixture.dataSourceName, management_system_sync_in_progress: true }),
    }),
  );
  const addressResponse = await apiRoute.POST(
    new Request(`${location}/contact_details/batch_create_or_update`, { method: "POST", headers: authorized, body: "{}" }),
  );
  const { put_data_url: url } = (await addressResponse.json()) as { put_data_url: string };
  expect(url.startsWith(`${origin}/sandbox/uploads/`)).toBe(true);
  // Next builds request.url from its configured hostname; the address follows the Host the client used.
  const viaHost = await apiRoute.POST(
    new Request(`${location}/contact_details/batch_create_or_update`, {
      method: "POST",
      headers: { ...authorized, host: "127.0.0.1:3999" },
      body: "{}",
    }),
  );
  expect(((await viaHost.json()) as { put_data_url: string }).put_data_url.startsWith("http://127.0.0.1:3999/sandbox/uploads/")).toBe(true);
  const upload = await uploadRoute.PUT(
    new Request(url, { method: "PUT", headers: { "content-type": "application/json" }, body: '[{"external_id":"c-1"}]' }),
  );
  expect(upload.status).toBe(200);
  const wrongPlace = await apiRoute.PUT(new Request(url.replace("/sandbox/uploads/", "/sandbox/api/v1/uploads/"), { method: "PUT", body: "[]" }));
  expect(wrongPlace.status).toBe(404);
  await injectFault(testDb.db, { target: "users_me", mode: { kind: "status", status: 503 }, count: 1 });
  expect((await apiRoute.GET(new Request(`${origin}/sandbox/api/v1/users/me`, { headers: authorized }))).status).toBe(503);
});

test("in production mode the app serves no sandbox unless SANDBOX_ENABLED=true", async () => {
  const fixture = await createSandboxFixture(testDb.db);
  const saved = {
    NODE_ENV: process.env.NODE_ENV,
    LOCATION_SYNC_EMBEDDED: process.env.LOCATION_SYNC_EMBEDDED,
    SANDBOX_ENABLED: process.env.SANDBOX_ENABLED,
  };
  const env = process.env as Record<string, string | undefined>;
  const call = () =>
    apiRoute.POST(
      new Request(`${origin}/sandbox/api/v1/access_tokens`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": fixture.apiKey },
        body: JSON.stringify({
          email: fixture.owner.email,
          password: fixture.owner.password,
          client_id: fixture.clientId,
          client_secret: fixture.clientSecret,
        }),
      }),
    );
  try {
    env.NODE_ENV = "production";
    delete env.LOCATION_SYNC_EMBEDDED;
    delete env.SANDBOX_ENABLED;
    expect((await call()).status).toBe(404);
    env.SANDBOX_ENABLED = "true";
    expect((await call()).status).toBe(200);
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete env[key];
      else env[key] = value;
    }
  }
});

test("the app serves no fault control: the published demo API key cannot arm a fault", async () => {
  const fixture = await createSandboxFixture(testDb.db);
  const headers = { "content-type": "application/json", "x-api-key": fixture.apiKey };
  const body = JSON.stringify({ target: "users_me", mode: { kind: "status", status: 503 } });
  for (const path of ["/sandbox/control/faults", "/sandbox/api/__sandbox/faults", "/sandbox/api/faults"]) {
    const answer = await serveAppSandbox(new Request(`${origin}${path}`, { method: "POST", headers, body }));
    expect(answer.status, path).toBe(404);
  }
  expect(await listFaults(testDb.db)).toEqual([]);
});

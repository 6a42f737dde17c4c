import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { revokeSandboxTokens } from "./provision";
import { startSandboxServer, type SandboxServer } from "./server";
import { createSandboxFixture, createSandboxHttp, type SandboxFixture } from "./testing";

const testDb = await useTestDatabase();
let server: SandboxServer;
let fixture: SandboxFixture;
let http: ReturnType<typeof createSandboxHttp>;

beforeAll(async () => {
  server = await startSandboxServer({ db: testDb.db });
  fixture = await createSandboxFixture(testDb.db);
  http = createSandboxHttp(server.apiBaseUrl, fixture.apiKey);
});
afterAll(() => server.close());

const ownerToken = () => http.userToken(fixture.owner.email, fixture.owner.password, fixture.clientId, fixture.clientSecret);

describe("API key", () => {
  test("rejects a request without the x-api-key header", async () => {
    const result = await http.call("POST", "/access_tokens", { body: {}, headers: { "x-api-key": "" } });
    expect(result.status).toBe(401);
    expect(result.json.error.code).toBe("invalid_api_key");
  });

  test("rejects a wrong API key on every endpoint, before looking at the token", async () => {
    const wrong = createSandboxHttp(server.apiBaseUrl, "not-the-key");
    const token = await ownerToken();
    for (const [method, path] of [
      ["GET", "/users/me"],
      ["PUT", `/locations/${fixture.locationId}/update_management_system`],
      ["POST", `/locations/${fixture.locationId}/calendars/batch_sync_calendars`],
      ["POST", `/locations/${fixture.locationId}/openings/batch_sync_openings`],
    ] as const) {
      const result = await wrong.call(method, path, { token, body: method === "GET" ? undefined : {} });
      expect(result.status, path).toBe(401);
      expect(result.json.error.code).toBe("invalid_api_key");
    }
  });
});

describe("user tokens", () => {
  test("issues a user token for the owner's email and password", async () => {
    const token = await ownerToken();
    const me = await http.call("GET", "/users/me", { token });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ id: fixture.owner.id, email: fixture.owner.email });
    expect(me.json.location_id).toBeUndefined();
  });

  test("rejects a wrong password as invalid_credentials", async () => {
    const result = await http.call("POST", "/access_tokens", {
      body: { email: fixture.owner.email, password: "wrong", client_id: fixture.clientId, client_secret: fixture.clientSecret },
    });
    expect(result.status).toBe(401);
    expect(result.json.error.code).toBe("invalid_credentials");
    expect(result.text).not.toContain("wrong");
  });

  test("rejects a wrong client secret as invalid_client", async () => {
    const result = await http.call("POST", "/access_tokens", {
      body: { email: fixture.owner.email, password: fixture.owner.password, client_id: fixture.clientId, client_secret: "nope" },
    });
    expect(result.status).toBe(401);
    expect(result.json.error.code).toBe("invalid_client");
  });

  test("names the missing field of the token request", async () => {
    const result = await http.call("POST", "/access_tokens", { body: { email: fixture.owner.email } });
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("invalid_request");
    expect(result.json.error.details.map((detail) => detail.field)).toContain("password");
  });

  test("accepts the token as the access_token query parameter", async () => {
    const token = await ownerToken();
    const response = await fetch(`${server.apiBaseUrl}/v1/users/me?access_token=${encodeURIComponent(token)}`, {
      headers: { "x-api-key": fixture.apiKey },
    });
    expect(response.status).toBe(200);
  });
});

describe("tokens on protected endpoints", () => {
  test("rejects a missing token", async () => {
    const result = await http.call("GET", "/users/me");
    expect(result.status).toBe(401);
    expect(result.json.error.code).toBe("missing_token");
  });

  test("rejects an unknown token", async () => {
    const result = await http.call("GET", "/users/me", { token: "sbx_u_made-up" });
    expect(result.status).toBe(401);
    expect(result.json.error.code).toBe("invalid_token");
  });

  test("rejects a revoked token", async () => {
    const token = await ownerToken();
    const stranger = await http.userToken(fixture.stranger.email, fixture.stranger.password, fixture.clientId, fixture.clientSecret);
    await revokeSandboxTokens(testDb.db, { userId: fixture.stranger.id });
    expect((await http.call("GET", "/users/me", { token: stranger })).json.error.code).toBe("invalid_token");
    expect((await http.call("GET", "/users/me", { token })).status).toBe(200);
  });

  test("rejects a token of another environment", async () => {
    const other = await createSandboxFixture(testDb.db);
    const otherHttp = createSandboxHttp(server.apiBaseUrl, other.apiKey);
    const token = await ownerToken();
    const result = await otherHttp.call("GET", "/users/me", { token });
    expect(result.status).toBe(401);
    expect(result.json.error.code).toBe("invalid_token");
  });
});

describe("location tokens", () => {
  test("issues a location token to the owner; it acts as the owner for that location", async () => {
    const token = await http.locationToken(await ownerToken(), fixture.locationId, fixture.clientId, fixture.clientSecret);
    const me = await http.call("GET", "/users/me", { token });
    expect(me.json).toMatchObject({ id: fixture.owner.id, location_id: fixture.locationId });
    const open = await http.call("PUT", `/locations/${fixture.locationId}/update_management_system`, {
      token,
      body: { management_system: fixture.dataSourceName, management_system_sync_in_progress: false },
    });
    expect(open.status).toBe(200);
  });

  test("refuses a location token to a user who does not own the location", async () => {
    const fresh = await http.userToken(fixture.stranger.email, fixture.stranger.password, fixture.clientId, fixture.clientSecret);
    const result = await http.call("POST", `/access_tokens/locations/${fixture.locationId}`, {
      token: fresh,
      body: { client_id: fixture.clientId, client_secret: fixture.clientSecret },
    });
    expect(result.status).toBe(403);
    expect(result.json.error.code).toBe("not_location_owner");
  });

  test("answers unknown_location for a location id that does not exist", async () => {
    const result = await http.call("POST", "/access_tokens/locations/loc_missing", {
      token: await ownerToken(),
      body: { client_id: fixture.clientId, client_secret: fixture.clientSecret },
    });
    expect(result.status).toBe(404);
    expect(result.json.error.code).toBe("unknown_location");
  });

  test("refuses a location token where a user token is required", async () => {
    const locationToken = await http.locationToken(await ownerToken(), fixture.locationId, fixture.clientId, fixture.clientSecret);
    const result = await http.call("POST", `/access_tokens/locations/${fixture.locationId}`, {
      token: locationToken,
      body: { client_id: fixture.clientId, client_secret: fixture.clientSecret },
    });
    expect(result.status).toBe(401);
    expect(result.json.error.code).toBe("wrong_token_kind");
  });

  test("refuses a location token on another location's endpoints", async () => {
    const locationToken = await http.locationToken(await ownerToken(), fixture.locationId, fixture.clientId, fixture.clientSecret);
    const result = await http.call("PUT", `/locations/${fixture.otherLocationId}/update_management_system`, {
      token: locationToken,
      body: { management_system: fixture.dataSourceName, management_system_sync_in_progress: true },
    });
    expect(result.status).toBe(403);
    expect(result.json.error.code).toBe("token_location_mismatch");
  });

  test("refuses a data-sync call by a user who does not own the location", async () => {
    const strangerToken = await http.userToken(fixture.stranger.email, fixture.stranger.password, fixture.clientId, fixture.clientSecret);
    const result = await http.call("PUT", `/locations/${fixture.locationId}/update_management_system`, {
      token: strangerToken,
      body: { management_system: fixture.dataSourceName, management_system_sync_in_progress: true },
    });
    expect(result.status).toBe(403);
    expect(result.json.error.code).toBe("not_location_owner");
  });
});

describe("request bodies", () => {
  test("refuses a JSON body over 32 MiB with 413 body_too_large, and NUL in any string with 422", async () => {
    const huge = await fetch(`${server.apiBaseUrl}/v1/access_tokens`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": fixture.apiKey },
      body: Buffer.alloc(33 * 1024 * 1024, 0x20),
    });
    expect(huge.status).toBe(413);
    expect((await huge.json()).error.code).toBe("body_too_large");

    const nul = await http.call("POST", "/access_tokens", {
      body: { email: `${fixture.owner.email}\u0000`, password: "x", client_id: fixture.clientId, client_secret: fixture.clientSecret },
    });
    expect(nul.status).toBe(422);
    expect(nul.json.error).toMatchObject({ code: "invalid_request", details: [{ field: "email" }] });
  });
});

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sandboxEnvironments } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { parseConfig } from "@/lib/config/config";
import { ensureSandboxDemo, sandboxDemo } from "./provision";
import { readResponseShapeSetting, sandboxErrorShapes, sandboxResponseShapes, type SandboxResponseShape } from "./response-shapes";
import { startSandboxServer, type SandboxServer } from "./server";
import { createSandboxFixture, createSandboxHttp, putUpload, sampleCatalog } from "./testing";

// The raw answers of every body the spec does not show, per response shape; what the spec shows stays as shown.
const testDb = await useTestDatabase();
let server: SandboxServer;

beforeAll(async () => {
  server = await startSandboxServer({ db: testDb.db });
});
afterAll(() => server.close());

async function connect(responseShape: SandboxResponseShape) {
  const fixture = await createSandboxFixture(testDb.db, { responseShape });
  const http = createSandboxHttp(server.apiBaseUrl, fixture.apiKey);
  const userToken = await http.userToken(fixture.owner.email, fixture.owner.password, fixture.clientId, fixture.clientSecret);
  const token = await http.locationToken(userToken, fixture.locationId, fixture.clientId, fixture.clientSecret);
  const at = (path: string) => `/locations/${fixture.locationId}${path}`;
  return { fixture, http, token, at };
}

type Answer = { status: number; headers: Headers; text: string; json: unknown };

/** What each shape must look like; `documented` is the sandbox's own object for that endpoint. */
function expectShape(shape: SandboxResponseShape, answer: Answer, documented: Record<string, unknown>) {
  switch (shape) {
    case "documented":
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject(documented);
      break;
    case "empty":
      expect({ status: answer.status, text: answer.text }).toEqual({ status: 200, text: "" });
      break;
    case "no_content":
      expect({ status: answer.status, text: answer.text }).toEqual({ status: 204, text: "" });
      break;
    case "nested":
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ data: { result: documented }, meta: expect.any(Object) });
      expect(Object.keys(documented).some((key) => key in (answer.json as object))).toBe(false);
      break;
    case "text":
      expect({ status: answer.status, type: answer.headers.get("content-type"), text: answer.text }).toEqual({
        status: 200,
        type: "text/plain; charset=utf-8",
        text: "OK",
      });
      break;
    case "extra":
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ ...documented, request_id: expect.any(String), rate_limit: expect.any(Object) });
      break;
  }
}

describe.each(sandboxResponseShapes)("response shape %s", (shape) => {
  test("shapes users/me, update_management_system, batch_sync_* and the upload PUT; put_data_url stays at the top level", async () => {
    const { fixture, http, token, at } = await connect(shape);
    expectShape(shape, await http.call("GET", "/users/me", { token }), {
      id: fixture.owner.id,
      email: fixture.owner.email,
      location_id: fixture.locationId,
    });

    const management = (inProgress: boolean) => ({ management_system: fixture.dataSourceName, management_system_sync_in_progress: inProgress });
    const opened = await http.call("PUT", at("/update_management_system"), { token, body: management(true) });
    expectShape(shape, opened, { location_id: fixture.locationId, ...management(true) });

    const batches = [
      ["/calendars/batch_sync_calendars", sampleCatalog.calendars],
      ["/service_categories/batch_sync_service_categories", sampleCatalog.categories],
      ["/services/batch_sync_services", sampleCatalog.services],
    ] as const;
    for (const [path, data] of batches) {
      expectShape(shape, await http.call("POST", at(path), { token, body: { data } }), { synced: data.length });
    }

    const posted = await http.call("POST", at("/contact_details/batch_create_or_update"), { token, body: {} });
    expect(posted.status).toBe(200);
    const answer = posted.json as Record<string, unknown>;
    expect(answer.put_data_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/uploads\//);
    const beside = Object.keys(answer).filter((key) => key !== "put_data_url");
    if (shape === "nested") expect(answer).toMatchObject({ data: { result: expect.any(Object) }, meta: expect.any(Object) });
    else if (shape === "extra") expect(beside).toEqual(expect.arrayContaining(["request_id", "rate_limit"]));
    else expect(beside).toEqual([]);

    const uploaded = await putUpload(answer.put_data_url as string, [{ external_id: "c-1", first_name: "Ada" }]);
    expectShape(shape, { ...uploaded, json: uploaded.json as unknown }, { received: 1 });

    expectShape(shape, await http.call("PUT", at("/update_management_system"), { token, body: management(false) }), {
      location_id: fixture.locationId,
      ...management(false),
      processed: { contact_details: 1 },
    });
  });

  test("token answers and error answers keep their documented JSON", async () => {
    const { fixture, http, token, at } = await connect(shape);
    const issued = await http.call("POST", "/access_tokens", {
      body: { email: fixture.owner.email, password: fixture.owner.password, client_id: fixture.clientId, client_secret: fixture.clientSecret },
    });
    expect(issued.status).toBe(200);
    expect(issued.json).toEqual({ access_token: expect.any(String) });

    const notInSync = await http.call("POST", at("/calendars/batch_sync_calendars"), { token, body: { data: [] } });
    expect(notInSync.status).toBe(409);
    expect(notInSync.headers.get("content-type")).toMatch(/^application\/json/);
    expect(notInSync.json.error.code).toBe("not_in_sync");
    expect((await http.call("GET", "/users/me", { token: "sbx_l_made-up" })).json.error.code).toBe("invalid_token");
  });
});

describe("SANDBOX_RESPONSE_SHAPE", () => {
  test("is documented when unset, one of the shapes when set, and a clear error otherwise", () => {
    const setting = (value?: string) => readResponseShapeSetting(parseConfig({ NODE_ENV: "test", SANDBOX_RESPONSE_SHAPE: value }));
    expect(setting(undefined)).toBe("documented");
    expect(setting(" ")).toBe("documented");
    expect(setting("no_content")).toBe("no_content");
    expect(() => setting("xml")).toThrow(
      'SANDBOX_RESPONSE_SHAPE="xml" is not a response shape; use one of: documented, empty, no_content, nested, text, extra.',
    );
  });

  test("the demo environment takes the shape on every start", async () => {
    const shapeOfDemo = async () =>
      (await testDb.db.select().from(sandboxEnvironments).where(eq(sandboxEnvironments.name, sandboxDemo.environmentName)))[0]?.responseShape;
    await ensureSandboxDemo(testDb.db, { responseShape: "nested" });
    expect(await shapeOfDemo()).toBe("nested");
    await ensureSandboxDemo(testDb.db, { responseShape: "text" });
    expect(await shapeOfDemo()).toBe("text");
    await ensureSandboxDemo(testDb.db);
    expect(await shapeOfDemo()).toBe("text");
  });
});

describe("error shapes (the spec shows no error bodies)", () => {
  const answers = {
    documented: { status: 401, body: /"code":"invalid_api_key"/ },
    gateway: { status: 403, body: /^\{"message":"Forbidden"\}$/ },
    empty: { status: 401, body: /^$/ },
  } as const;
  test.each(sandboxErrorShapes)("%s: how a wrong API key is answered", async (shape) => {
    const shaped = shape === "documented" ? server : await startSandboxServer({ db: testDb.db, errorShape: shape });
    try {
      const response = await fetch(`${shaped.apiBaseUrl}/v1/users/me`, { headers: { "x-api-key": "a-mistyped-api-key" } });
      expect({ status: response.status, body: await response.text() }).toEqual({
        status: answers[shape].status,
        body: expect.stringMatching(answers[shape].body),
      });
    } finally {
      if (shaped !== server) await shaped.close();
    }
  });
});

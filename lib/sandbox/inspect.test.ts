import { afterAll, beforeAll, expect, test } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { inspectSandboxLocation, listSandboxLocations } from "./inspect";
import { pruneSandboxRequestLog } from "./request-log";
import { startSandboxServer, type SandboxServer } from "./server";
import { createSandboxFixture, createSandboxHttp, putUpload } from "./testing";

const testDb = await useTestDatabase();
let server: SandboxServer;
beforeAll(async () => {
  server = await startSandboxServer({ db: testDb.db });
});
afterAll(() => server.close());

test("shows records per type, sessions with their events and uploads, and the requests with outcome", async () => {
  const fixture = await createSandboxFixture(testDb.db);
  const http = createSandboxHttp(server.apiBaseUrl, fixture.apiKey);
  const token = await http.userToken(fixture.owner.email, fixture.owner.password, fixture.clientId, fixture.clientSecret);
  const path = `/locations/${fixture.locationId}`;
  const sync = (inProgress: boolean) =>
    http.call("PUT", `${path}/update_management_system`, {
      token,
      body: { management_system: fixture.dataSourceName, management_system_sync_in_progress: inProgress },
    });
  await http.call("POST", `${path}/calendars/batch_sync_calendars`, { token, body: { data: [] } });
  await sync(true);
  await http.call("POST", `${path}/calendars/batch_sync_calendars`, { token, body: { data: [{ external_id: "cal-1", name: "Alice" }] } });
  const url = (await http.call("POST", `${path}/contact_details/batch_create_or_update`, { token, body: {} })).json.put_data_url as string;
  await putUpload(url, [{ external_id: "c-1", mobile_phone_number: "0044" }]);
  await sync(false);

  expect((await listSandboxLocations(testDb.db)).map((location) => location.id)).toContain(fixture.locationId);
  const inspection = await inspectSandboxLocation(testDb.db, { locationId: fixture.locationId, type: "calendars" });
  expect(inspection?.counts).toMatchObject({ calendars: 1, contact_details: 0 });
  expect(inspection?.records.map((record) => record.key)).toEqual(["cal-1"]);
  const [session] = inspection!.sessions;
  expect(session?.events.map((event) => event.kind)).toEqual(["opened", "campaigns_released"]);
  expect(session?.uploads).toEqual([expect.objectContaining({ kind: "contact_details", status: "rejected" })]);
  const outcomes = inspection!.requests.map((request) => [request.endpoint, request.status, request.code]);
  expect(outcomes).toContainEqual(["batch_sync_calendars", 409, "not_in_sync"]);
  expect(outcomes).toContainEqual(["upload", 422, "invalid_records"]);
  const uploadEntry = inspection!.requests.find((request) => request.endpoint === "upload");
  expect(uploadEntry?.reason).toContain("mobile_phone_number");
  // The log never holds the one-time address.
  expect(uploadEntry?.path).not.toContain(new URL(url).pathname.split("/").pop());
});

test("prunes request-log entries older than the kept days", async () => {
  const fixture = await createSandboxFixture(testDb.db);
  const http = createSandboxHttp(server.apiBaseUrl, fixture.apiKey);
  await http.call("GET", "/users/me");
  const inTwentyDays = new Date(Date.now() + 20 * 86_400_000);
  expect(await pruneSandboxRequestLog(testDb.db, { keepDays: 14, now: new Date() })).toBe(0);
  expect(await pruneSandboxRequestLog(testDb.db, { keepDays: 14, now: inTwentyDays })).toBeGreaterThan(0);
});

test("pages the requests newest first, by id, without repeating or skipping one", async () => {
  const fixture = await createSandboxFixture(testDb.db);
  const http = createSandboxHttp(server.apiBaseUrl, fixture.apiKey);
  const token = await http.userToken(fixture.owner.email, fixture.owner.password, fixture.clientId, fixture.clientSecret);
  const path = `/locations/${fixture.locationId}`;
  for (let index = 0; index < 7; index++) await http.call("POST", `${path}/calendars/batch_sync_calendars`, { token, body: { data: [] } });

  const seen: number[] = [];
  let before: number | undefined;
  let pages = 0;
  do {
    const page = await inspectSandboxLocation(testDb.db, {
      locationId: fixture.locationId,
      type: "calendars",
      requestLimit: 3,
      requestsBefore: before,
    });
    const ids = page!.requests.map((request) => request.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    seen.push(...ids);
    before = page!.olderRequestsBefore ?? undefined;
    pages++;
  } while (before !== undefined);
  expect(pages).toBe(3);
  expect(seen).toHaveLength(7);
  expect(new Set(seen).size).toBe(7);
  expect(seen).toEqual([...seen].sort((a, b) => b - a));
});

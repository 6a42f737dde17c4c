import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { sandboxRecords, sandboxSessionEvents, sandboxSessions, sandboxUploads } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { startSandboxServer, type SandboxServer } from "./server";
import { createSandboxFixture, createSandboxHttp, putUpload, sampleCatalog, type SandboxFixture } from "./testing";

const testDb = await useTestDatabase();
let server: SandboxServer;
let fixture: SandboxFixture;
let http: ReturnType<typeof createSandboxHttp>;
let token: string;

beforeAll(async () => {
  server = await startSandboxServer({ db: testDb.db });
});
afterAll(() => server.close());

// Every test gets its own environment and location: no test depends on another's leftovers.
beforeEach(async () => {
  fixture = await createSandboxFixture(testDb.db);
  http = createSandboxHttp(server.apiBaseUrl, fixture.apiKey);
  const userToken = await http.userToken(fixture.owner.email, fixture.owner.password, fixture.clientId, fixture.clientSecret);
  token = await http.locationToken(userToken, fixture.locationId, fixture.clientId, fixture.clientSecret);
});

const at = (path: string) => `/locations/${fixture.locationId}${path}`;
const setSync = (inProgress: boolean, managementSystem = fixture.dataSourceName) =>
  http.call("PUT", at("/update_management_system"), {
    token,
    body: { management_system: managementSystem, management_system_sync_in_progress: inProgress },
  });
const post = (path: string, body: unknown) => http.call("POST", at(path), { token, body });
const uploadAddress = async (path: string, body: unknown) => {
  const result = await post(path, body);
  expect(result.status, result.text).toBe(200);
  return result.json.put_data_url as string;
};
const records = (type: string) =>
  testDb.db
    .select()
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.locationId, fixture.locationId), eq(sandboxRecords.type, type as "calendars")))
    .then((rows) => rows.map((row) => row.data).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))));

const { calendars, categories, services } = sampleCatalog;
const contact = (id: string, extra: Record<string, unknown> = {}) => ({
  external_id: id,
  email: `${id}@example.com`,
  email_subscribed: true,
  text_message_subscribed: false,
  first_name: "Ada",
  last_name: "Lovelace",
  mobile_phone_number: "+441234567890",
  birthdate: "1990-12-10",
  ...extra,
});
const appointment = (id: string, startAt: string, extra: Record<string, unknown> = {}) => ({
  external_id: id,
  start_at: startAt,
  end_at: startAt.replace(/T(\d{2})/, (_, hour: string) => `T${String(Number(hour) + 1).padStart(2, "0")}`),
  contact_detail_external_id: "c-1",
  service_external_id: "svc-1",
  calendar_external_id: "cal-1",
  price_cents: 2500,
  ...extra,
});
/** The spec's date-time form at UTC, `hours` from now rounded to the hour. */
const hoursFromNow = (hours: number) => {
  const date = new Date(Date.now() + hours * 3600_000);
  date.setUTCMinutes(0, 0, 0);
  return `${date.toISOString().slice(0, 19)}Z+00:00`;
};
const dateFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function seedMenu() {
  expect((await post("/calendars/batch_sync_calendars", { data: calendars })).status).toBe(200);
  expect((await post("/service_categories/batch_sync_service_categories", { data: categories })).status).toBe(200);
  expect((await post("/services/batch_sync_services", { data: services })).status).toBe(200);
}

async function uploadContacts(list: unknown[]) {
  const url = await uploadAddress("/contact_details/batch_create_or_update", {});
  const result = await putUpload(url, list);
  expect(result.status, result.text).toBe(200);
}

describe("sync session state", () => {
  test("refuses every data-sync call while the location is not in sync", async () => {
    for (const [path, body] of [
      ["/calendars/batch_sync_calendars", { data: calendars }],
      ["/service_categories/batch_sync_service_categories", { data: categories }],
      ["/services/batch_sync_services", { data: services }],
      ["/contact_details/batch_create_or_update", {}],
      ["/vehicles/batch_create_or_update", {}],
      ["/appointments/batch_sync_appointments", { start_date: "2026-01-01", end_date: "2026-01-31" }],
      ["/openings/batch_sync_openings", { start_date: "2026-01-01", end_date: "2026-01-02", service_external_id: "svc-1" }],
    ] as const) {
      const result = await post(path, body);
      expect(result.status, path).toBe(409);
      expect(result.json.error.code).toBe("not_in_sync");
    }
  });

  test("rejects a management_system that is not the configured data source name", async () => {
    const result = await setSync(true, "SomethingElse");
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("data_source_mismatch");
    expect(result.json.error.details[0]).toMatchObject({ field: "management_system" });
    expect((await post("/calendars/batch_sync_calendars", { data: calendars })).status).toBe(409);
  });

  test("opens a session idempotently and records campaigns released when it closes", async () => {
    const first = await setSync(true);
    const again = await setSync(true);
    expect(again.json.session_id).toBe(first.json.session_id);
    const closed = await setSync(false);
    expect(closed.status).toBe(200);
    expect(closed.json.management_system_sync_in_progress).toBe(false);
    const events = await testDb.db
      .select()
      .from(sandboxSessionEvents)
      .where(eq(sandboxSessionEvents.sessionId, first.json.session_id as string));
    expect(events.map((event) => event.kind)).toEqual(["opened", "campaigns_released"]);
    const [session] = await testDb.db
      .select()
      .from(sandboxSessions)
      .where(eq(sandboxSessions.id, first.json.session_id as string));
    expect(session?.closedAt).not.toBeNull();
    // Closing a closed location is a no-op, so a client's retry after a lost answer succeeds.
    expect((await setSync(false)).status).toBe(200);
  });
});

describe("calendars, categories and services", () => {
  test("replaces the calendars as a whole: left-out ones are removed", async () => {
    await setSync(true);
    await post("/calendars/batch_sync_calendars", { data: calendars });
    await post("/calendars/batch_sync_calendars", { data: [{ external_id: "cal-2", name: "Bobby" }] });
    expect(await records("calendars")).toEqual([{ external_id: "cal-2", name: "Bobby" }]);
  });

  test("rejects a batch with an invalid record by index, field and reason, and keeps the old set", async () => {
    await setSync(true);
    await post("/calendars/batch_sync_calendars", { data: calendars });
    const result = await post("/calendars/batch_sync_calendars", {
      data: [
        { external_id: "cal-3", name: "Cy" },
        { external_id: "cal-4", name: 4 },
      ],
    });
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("invalid_records");
    expect(result.json.error.details[0]).toMatchObject({ index: 1, field: "name" });
    expect(result.json.error.details[0]?.reason).toEqual(expect.any(String));
    expect(await records("calendars")).toHaveLength(2);
  });

  test("rejects a duplicate external_id within one request", async () => {
    await setSync(true);
    const result = await post("/calendars/batch_sync_calendars", { data: [calendars[0], calendars[0]] });
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("duplicate_external_id");
    expect(result.json.error.details[0]).toMatchObject({ index: 1, field: "external_id" });
  });

  test("rejects a record that carries both id and external_id", async () => {
    await setSync(true);
    const result = await post("/calendars/batch_sync_calendars", { data: [{ ...calendars[0], id: "upstream-1" }] });
    expect(result.status).toBe(422);
    expect(result.json.error.details[0]).toMatchObject({ index: 0, field: "id" });
  });

  test("rejects a body whose data is not an array", async () => {
    await setSync(true);
    const result = await post("/calendars/batch_sync_calendars", { data: { external_id: "x" } });
    expect(result.status).toBe(422);
    expect(result.json.error.details[0]).toMatchObject({ field: "data" });
  });

  test("rejects malformed JSON as invalid_json", async () => {
    await setSync(true);
    const result = await http.call("POST", at("/calendars/batch_sync_calendars"), { token, body: "{not json" });
    expect(result.status).toBe(400);
    expect(result.json.error.code).toBe("invalid_json");
  });

  test("rejects services that refer to an unknown category or calendar", async () => {
    await setSync(true);
    await post("/calendars/batch_sync_calendars", { data: [calendars[0]] });
    await post("/service_categories/batch_sync_service_categories", { data: categories });
    const result = await post("/services/batch_sync_services", {
      data: [{ ...services[0], service_category_external_id: "cat-9" }],
    });
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("unknown_reference");
    expect(result.json.error.details).toEqual([
      expect.objectContaining({ index: 0, field: "service_category_external_id" }),
      expect.objectContaining({ index: 0, field: "calendar_external_ids.1" }),
    ]);
    expect(await records("services")).toEqual([]);
  });

  test("rejects a service category whose list_order is not an integer", async () => {
    await setSync(true);
    const result = await post("/service_categories/batch_sync_service_categories", { data: [{ ...categories[0], list_order: 1.5 }] });
    expect(result.status).toBe(422);
    expect(result.json.error.details[0]).toMatchObject({ index: 0, field: "list_order" });
  });
});

describe("contact details", () => {
  test("stages uploaded contacts and applies them (create or update) when the session closes", async () => {
    await setSync(true);
    await uploadContacts([contact("c-1"), contact("c-2")]);
    expect(await records("contact_details")).toEqual([]);
    await setSync(false);
    expect(await records("contact_details")).toHaveLength(2);
    await setSync(true);
    await uploadContacts([contact("c-2", { first_name: "Grace" }), contact("c-3")]);
    const closed = await setSync(false);
    expect(closed.json.processed).toEqual({ contact_details: 2 });
    const stored = await records("contact_details");
    expect(stored.map((row) => row.external_id)).toEqual(["c-1", "c-2", "c-3"]);
    expect(stored.find((row) => row.external_id === "c-2")?.first_name).toBe("Grace");
    const events = await testDb.db
      .select()
      .from(sandboxSessionEvents)
      .where(eq(sandboxSessionEvents.sessionId, closed.json.session_id as string));
    expect(events.find((event) => event.kind === "campaigns_released")?.details).toEqual({ counts: { contact_details: 2 } });
  });

  test("an update merges the sent fields into the stored contact: a partial record erases nothing", async () => {
    await setSync(true);
    await uploadContacts([contact("c-1", { city: "Berlin" }), contact("c-2")]);
    await setSync(false);
    await setSync(true);
    await uploadContacts([{ external_id: "c-1", first_name: "Grace", email_subscribed: false }]);
    // Two uploads of one session are applied in the order received, each merged into what is stored.
    await uploadContacts([{ external_id: "c-1", last_name: "Hopper" }]);
    await setSync(false);
    const stored = await records("contact_details");
    expect(stored.find((row) => row.external_id === "c-1")).toEqual(
      contact("c-1", { city: "Berlin", first_name: "Grace", last_name: "Hopper", email_subscribed: false }),
    );
    expect(stored.find((row) => row.external_id === "c-2")).toEqual(contact("c-2"));
  });

  test.each([
    ["mobile_phone_number", "0123 456"],
    ["birthdate", "10/12/1990"],
    ["email", "not-an-email"],
    ["email_subscribed", "yes"],
    ["gender", "Female"],
    ["birthdate", "1990-02-30"],
  ])("rejects a contact whose %s is %j, naming index and field, and keeps nothing", async (field, value) => {
    await setSync(true);
    const url = await uploadAddress("/contact_details/batch_create_or_update", {});
    const result = await putUpload(url, [contact("c-1"), contact("c-2"), contact("c-3", { [field]: value })]);
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("invalid_records");
    expect(result.json.error.details[0]).toMatchObject({ index: 2, field });
    expect(result.json.error.details[0]?.reason).toEqual(expect.any(String));
    await setSync(false);
    expect(await records("contact_details")).toEqual([]);
  });

  test("rejects a contact that carries neither external_id nor id", async () => {
    await setSync(true);
    const url = await uploadAddress("/contact_details/batch_create_or_update", {});
    const result = await putUpload(url, [{ first_name: "Nobody" }]);
    expect(result.status).toBe(422);
    expect(result.json.error.details[0]).toMatchObject({ index: 0, field: "external_id" });
  });

  test("rejects a contact with a field the spec does not define", async () => {
    await setSync(true);
    const url = await uploadAddress("/contact_details/batch_create_or_update", {});
    const result = await putUpload(url, [contact("c-1", { shoe_size: 42 })]);
    expect(result.status).toBe(422);
    expect(result.json.error.details[0]).toMatchObject({ index: 0 });
    expect(result.json.error.details[0]?.reason).toContain("shoe_size");
  });

  test("rejects a duplicate external_id within one upload", async () => {
    await setSync(true);
    const url = await uploadAddress("/contact_details/batch_create_or_update", {});
    const result = await putUpload(url, [contact("c-1"), contact("c-1")]);
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("duplicate_external_id");
    expect(result.json.error.details[0]).toMatchObject({ index: 1, field: "external_id" });
  });
});

describe("vehicles", () => {
  test("pass their fields through and must name a known contact", async () => {
    await setSync(true);
    await uploadContacts([contact("c-1")]);
    const bad = await putUpload(await uploadAddress("/vehicles/batch_create_or_update", {}), [
      { external_id: "v-1", contact_detail_external_id: "c-404", make: "Volvo" },
    ]);
    expect(bad.status).toBe(422);
    expect(bad.json.error.code).toBe("unknown_reference");
    expect(bad.json.error.details[0]).toMatchObject({ index: 0, field: "contact_detail_external_id" });
    const good = await putUpload(await uploadAddress("/vehicles/batch_create_or_update", {}), [
      { external_id: "v-1", contact_detail_external_id: "c-1", make: "Volvo", year: 2019 },
    ]);
    expect(good.status, good.text).toBe(200);
    await setSync(false);
    expect(await records("vehicles")).toEqual([{ external_id: "v-1", contact_detail_external_id: "c-1", make: "Volvo", year: 2019 }]);
  });

  test("an update merges the sent fields into the stored vehicle", async () => {
    await setSync(true);
    await uploadContacts([contact("c-1")]);
    const first = await putUpload(await uploadAddress("/vehicles/batch_create_or_update", {}), [
      { external_id: "v-1", contact_detail_external_id: "c-1", make: "Volvo", year: 2019 },
    ]);
    expect(first.status, first.text).toBe(200);
    await setSync(false);
    await setSync(true);
    const second = await putUpload(await uploadAddress("/vehicles/batch_create_or_update", {}), [{ external_id: "v-1", mileage: 42000 }]);
    expect(second.status, second.text).toBe(200);
    await setSync(false);
    expect(await records("vehicles")).toEqual([{ external_id: "v-1", contact_detail_external_id: "c-1", make: "Volvo", year: 2019, mileage: 42000 }]);
  });
});

describe("upload addresses", () => {
  test("are served on a different origin than the API", async () => {
    await setSync(true);
    const url = await uploadAddress("/contact_details/batch_create_or_update", {});
    expect(new URL(url).origin).toBe(server.uploadOrigin);
    expect(new URL(url).origin).not.toBe(server.apiBaseUrl);
  });

  test.each([
    ["the API key", { "x-api-key": "key" }, ""],
    ["a bearer token", { authorization: "Bearer abc" }, ""],
    ["an access_token query parameter", {}, "?access_token=abc"],
  ])("rejects an upload that carries %s", async (_label, headers: Record<string, string>, query) => {
    await setSync(true);
    const url = await uploadAddress("/contact_details/batch_create_or_update", {});
    const result = await putUpload(url + query, [contact("c-1")], headers);
    expect(result.status).toBe(403);
    expect(result.json.error.code).toBe("credentials_on_upload");
    expect(result.text).not.toContain("abc");
  });

  test("rejects a reused upload address", async () => {
    await setSync(true);
    const url = await uploadAddress("/contact_details/batch_create_or_update", {});
    expect((await putUpload(url, [contact("c-1")])).status).toBe(200);
    const again = await putUpload(url, [contact("c-1")]);
    expect(again.status).toBe(410);
    expect(again.json.error.code).toBe("upload_address_used");
  });

  test("rejects an expired upload address", async () => {
    await setSync(true);
    const url = await uploadAddress("/contact_details/batch_create_or_update", {});
    await testDb.db
      .update(sandboxUploads)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sandboxUploads.locationId, fixture.locationId));
    const result = await putUpload(url, [contact("c-1")]);
    expect(result.status).toBe(410);
    expect(result.json.error.code).toBe("upload_address_expired");
  });

  test("answers unknown_upload_address for a made-up address", async () => {
    const result = await putUpload(`${server.uploadOrigin}/uploads/made-up-token`, []);
    expect(result.status).toBe(404);
    expect(result.json.error.code).toBe("unknown_upload_address");
  });

  test.each([
    ["an object", JSON.stringify({ data: [] })],
    ["a string", '"hello"'],
  ])("rejects an upload body that is %s, not a JSON array", async (_label, body) => {
    await setSync(true);
    const url = await uploadAddress("/contact_details/batch_create_or_update", {});
    const result = await putUpload(url, body);
    expect(result.status).toBe(400);
    expect(result.json.error.code).toBe("not_an_array");
  });

  test.each([
    ["truncated", '[{"external_id":"c-1"'],
    ["with trailing garbage", "[] []"],
    ["empty", ""],
  ])("rejects an upload body that is %s", async (_label, body) => {
    await setSync(true);
    const url = await uploadAddress("/contact_details/batch_create_or_update", {});
    const result = await putUpload(url, body);
    expect(result.status).toBe(400);
    expect(["invalid_json", "not_an_array"]).toContain(result.json.error.code);
  });

  test("refuses an upload after its session closed", async () => {
    await setSync(true);
    const url = await uploadAddress("/contact_details/batch_create_or_update", {});
    await setSync(false);
    const result = await putUpload(url, [contact("c-1")]);
    expect(result.status).toBe(409);
    expect(result.json.error.code).toBe("not_in_sync");
  });
});

describe("appointments", () => {
  test("replace the stored appointments within the inclusive date range only", async () => {
    await setSync(true);
    await seedMenu();
    await uploadContacts([contact("c-1")]);
    const first = await uploadAddress("/appointments/batch_sync_appointments", { start_date: "2026-03-01", end_date: "2026-03-31" });
    expect(
      (
        await putUpload(first, [
          appointment("a-1", "2026-03-01T09:00:00Z+01:00"),
          appointment("a-2", "2026-03-15T09:00:00Z+01:00"),
          appointment("a-3", "2026-03-31T23:30:00Z+01:00", { end_at: "2026-03-31T23:45:00Z+01:00" }),
        ])
      ).status,
    ).toBe(200);
    await setSync(false);
    expect((await records("appointments")).map((row) => row.external_id)).toEqual(["a-1", "a-2", "a-3"]);

    await setSync(true);
    const second = await uploadAddress("/appointments/batch_sync_appointments", { start_date: "2026-03-10", end_date: "2026-03-31" });
    expect((await putUpload(second, [appointment("a-4", "2026-03-20T10:00:00Z+01:00")])).status).toBe(200);
    await setSync(false);
    expect((await records("appointments")).map((row) => row.external_id)).toEqual(["a-1", "a-4"]);
  });

  test("rejects an appointment outside the request's range", async () => {
    await setSync(true);
    await seedMenu();
    await uploadContacts([contact("c-1")]);
    const url = await uploadAddress("/appointments/batch_sync_appointments", { start_date: "2026-03-01", end_date: "2026-03-31" });
    const result = await putUpload(url, [appointment("a-1", "2026-03-05T09:00:00Z+01:00"), appointment("a-2", "2026-04-01T00:30:00Z+02:00")]);
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("out_of_range");
    expect(result.json.error.details[0]).toMatchObject({ index: 1, field: "start_at" });
  });

  test("rejects a start_at that is not in the spec's date-time form", async () => {
    await setSync(true);
    await seedMenu();
    await uploadContacts([contact("c-1")]);
    const url = await uploadAddress("/appointments/batch_sync_appointments", { start_date: "2026-03-01", end_date: "2026-03-31" });
    const result = await putUpload(url, [appointment("a-1", "2026-03-05 09:00")]);
    expect(result.status).toBe(422);
    expect(result.json.error.details[0]).toMatchObject({ index: 0, field: "start_at" });
  });

  test("rejects an appointment whose price_cents is not an integer", async () => {
    await setSync(true);
    await seedMenu();
    await uploadContacts([contact("c-1")]);
    const url = await uploadAddress("/appointments/batch_sync_appointments", { start_date: "2026-03-01", end_date: "2026-03-31" });
    const result = await putUpload(url, [
      appointment("a-1", "2026-03-05T09:00:00Z+01:00"),
      appointment("a-2", "2026-03-06T09:00:00Z+01:00", { price_cents: 12.5 }),
    ]);
    expect(result.status).toBe(422);
    expect(result.json.error.details[0]).toMatchObject({ index: 1, field: "price_cents" });
  });

  test("rejects an appointment that ends before it starts", async () => {
    await setSync(true);
    await seedMenu();
    await uploadContacts([contact("c-1")]);
    const url = await uploadAddress("/appointments/batch_sync_appointments", { start_date: "2026-03-01", end_date: "2026-03-31" });
    const result = await putUpload(url, [appointment("a-1", "2026-03-05T09:00:00Z+01:00", { end_at: "2026-03-05T08:00:00Z+01:00" })]);
    expect(result.status).toBe(422);
    expect(result.json.error.details[0]).toMatchObject({ index: 0, field: "end_at" });
  });

  test("accepts an appointment whose contact was uploaded earlier in the same session", async () => {
    await setSync(true);
    await seedMenu();
    await uploadContacts([contact("c-7")]);
    const url = await uploadAddress("/appointments/batch_sync_appointments", { start_date: "2026-03-01", end_date: "2026-03-31" });
    const result = await putUpload(url, [appointment("a-1", "2026-03-05T09:00:00Z+01:00", { contact_detail_external_id: "c-7" })]);
    expect(result.status, result.text).toBe(200);
  });

  test.each([
    ["contact_detail_external_id", "c-404"],
    ["service_external_id", "svc-404"],
    ["calendar_external_id", "cal-404"],
  ])("rejects an appointment whose %s is unknown", async (field, value) => {
    await setSync(true);
    await seedMenu();
    await uploadContacts([contact("c-1")]);
    const url = await uploadAddress("/appointments/batch_sync_appointments", { start_date: "2026-03-01", end_date: "2026-03-31" });
    const result = await putUpload(url, [appointment("a-1", "2026-03-05T09:00:00Z+01:00", { [field]: value })]);
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("unknown_reference");
    expect(result.json.error.details[0]).toMatchObject({ index: 0, field });
  });

  test("rejects a date range whose end is before its start", async () => {
    await setSync(true);
    const result = await post("/appointments/batch_sync_appointments", { start_date: "2026-03-31", end_date: "2026-03-01" });
    expect(result.status).toBe(422);
    expect(result.json.error.details[0]).toMatchObject({ field: "end_date" });
  });

  test("rejects a start_date that is not YYYY-MM-DD", async () => {
    await setSync(true);
    const result = await post("/appointments/batch_sync_appointments", { start_date: "01/03/2026", end_date: "2026-03-31" });
    expect(result.status).toBe(422);
    expect(result.json.error.details[0]).toMatchObject({ field: "start_date" });
  });
});

describe("openings", () => {
  test("replace one service's openings within the range", async () => {
    await setSync(true);
    await seedMenu();
    const range = { start_date: dateFromNow(-1), end_date: dateFromNow(4), service_external_id: "svc-1" };
    const first = await uploadAddress("/openings/batch_sync_openings", range);
    expect(
      (
        await putUpload(first, [
          { start_at: hoursFromNow(2), calendar_external_id: "cal-1" },
          { start_at: hoursFromNow(3), calendar_external_id: "cal-2" },
        ])
      ).status,
    ).toBe(200);
    await setSync(false);
    expect(await records("openings")).toHaveLength(2);
    await setSync(true);
    const second = await uploadAddress("/openings/batch_sync_openings", range);
    expect((await putUpload(second, [{ start_at: hoursFromNow(5), calendar_external_id: "cal-1" }])).status).toBe(200);
    await setSync(false);
    expect(await records("openings")).toEqual([{ start_at: hoursFromNow(5), calendar_external_id: "cal-1" }]);
  });

  test("rejects openings beyond the next 72 hours", async () => {
    await setSync(true);
    await seedMenu();
    const url = await uploadAddress("/openings/batch_sync_openings", {
      start_date: dateFromNow(0),
      end_date: dateFromNow(6),
      service_external_id: "svc-1",
    });
    const result = await putUpload(url, [
      { start_at: hoursFromNow(2), calendar_external_id: "cal-1" },
      { start_at: hoursFromNow(80), calendar_external_id: "cal-1" },
    ]);
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("beyond_openings_horizon");
    expect(result.json.error.details[0]).toMatchObject({ index: 1, field: "start_at" });
  });

  test("rejects an openings request for more than one service", async () => {
    await setSync(true);
    await seedMenu();
    const result = await post("/openings/batch_sync_openings", {
      start_date: dateFromNow(0),
      end_date: dateFromNow(2),
      service_external_id: ["svc-1", "svc-2"],
    });
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("multiple_services");
    expect(result.json.error.details[0]).toMatchObject({ field: "service_external_id" });
  });

  test("rejects an opening record that names another service", async () => {
    await setSync(true);
    await seedMenu();
    const url = await uploadAddress("/openings/batch_sync_openings", {
      start_date: dateFromNow(0),
      end_date: dateFromNow(2),
      service_external_id: "svc-1",
    });
    const result = await putUpload(url, [{ start_at: hoursFromNow(2), calendar_external_id: "cal-1", service_external_id: "svc-2" }]);
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("multiple_services");
    expect(result.json.error.details[0]).toMatchObject({ index: 0, field: "service_external_id" });
  });

  test("rejects an openings request for an unknown service", async () => {
    await setSync(true);
    await seedMenu();
    const result = await post("/openings/batch_sync_openings", {
      start_date: dateFromNow(0),
      end_date: dateFromNow(2),
      service_external_id: "svc-9",
    });
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("unknown_reference");
    expect(result.json.error.details[0]).toMatchObject({ field: "service_external_id" });
  });

  test("rejects an opening whose start_at lacks the UTC offset", async () => {
    await setSync(true);
    await seedMenu();
    const url = await uploadAddress("/openings/batch_sync_openings", {
      start_date: dateFromNow(0),
      end_date: dateFromNow(2),
      service_external_id: "svc-1",
    });
    const result = await putUpload(url, [{ start_at: hoursFromNow(2).replace("Z+00:00", "Z"), calendar_external_id: "cal-1" }]);
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("invalid_records");
    expect(result.json.error.details[0]).toMatchObject({ index: 0, field: "start_at" });
  });

  test("rejects an opening on an unknown calendar", async () => {
    await setSync(true);
    await seedMenu();
    const url = await uploadAddress("/openings/batch_sync_openings", {
      start_date: dateFromNow(0),
      end_date: dateFromNow(2),
      service_external_id: "svc-1",
    });
    const result = await putUpload(url, [{ start_at: hoursFromNow(2), calendar_external_id: "cal-9" }]);
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("unknown_reference");
    expect(result.json.error.details[0]).toMatchObject({ index: 0, field: "calendar_external_id" });
  });
});

describe("date-time style", () => {
  test("an environment switched to RFC 3339 accepts that form and rejects the spec's", async () => {
    const { createSandboxEnvironment, createSandboxOwner, createSandboxLocation } = await import("./provision");
    const credentials = await createSandboxEnvironment(testDb.db, { dateTimeStyle: "rfc3339" });
    const owner = await createSandboxOwner(testDb.db, {
      environmentId: credentials.environmentId,
      email: "rfc@sandbox.test",
      password: "rfc-password-1",
    });
    const locationId = await createSandboxLocation(testDb.db, { ownerId: owner.id });
    const rfc = createSandboxHttp(server.apiBaseUrl, credentials.apiKey);
    const rfcToken = await rfc.userToken("rfc@sandbox.test", "rfc-password-1", credentials.clientId, credentials.clientSecret);
    const path = `/locations/${locationId}`;
    await rfc.call("PUT", `${path}/update_management_system`, {
      token: rfcToken,
      body: { management_system: credentials.dataSourceName, management_system_sync_in_progress: true },
    });
    await rfc.call("POST", `${path}/calendars/batch_sync_calendars`, { token: rfcToken, body: { data: calendars } });
    await rfc.call("POST", `${path}/service_categories/batch_sync_service_categories`, { token: rfcToken, body: { data: categories } });
    await rfc.call("POST", `${path}/services/batch_sync_services`, { token: rfcToken, body: { data: services } });
    const range = { start_date: dateFromNow(0), end_date: dateFromNow(3), service_external_id: "svc-1" };
    const spec = (await rfc.call("POST", `${path}/openings/batch_sync_openings`, { token: rfcToken, body: range })).json.put_data_url as string;
    const rejected = await putUpload(spec, [{ start_at: hoursFromNow(2), calendar_external_id: "cal-1" }]);
    expect(rejected.status).toBe(422);
    expect(rejected.json.error.details[0]).toMatchObject({ index: 0, field: "start_at" });
    const plain = (await rfc.call("POST", `${path}/openings/batch_sync_openings`, { token: rfcToken, body: range })).json.put_data_url as string;
    const accepted = await putUpload(plain, [{ start_at: hoursFromNow(2).replace("Z+", "+"), calendar_external_id: "cal-1" }]);
    expect(accepted.status, accepted.text).toBe(200);
  });
});

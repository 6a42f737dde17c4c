import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { sandboxLocations, sandboxRecords, sandboxUploads, type SandboxRecordType } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { sandboxResponseShapes } from "@/lib/sandbox/response-shapes";
import { createSandboxFixture, sampleCatalog, type SandboxFixture } from "@/lib/sandbox/testing";
import { createUpstreamClient, type UpstreamClientOptions } from "./client";
import { UpstreamAuthenticationError, UpstreamRejectedError, UpstreamUnavailableError } from "./errors";
import { formatLocalDate, formatUpstreamDateTime } from "./formats";
import type { AttemptReport } from "./http";
import { ContactDetailRecord, type AppointmentRecord } from "./records";

// The client against the sandbox over real HTTP: every endpoint, a whole session, and injected faults.
const testDb = await useTestDatabase();
let server: SandboxServer;
let fixture: SandboxFixture;
let attempts: AttemptReport[];
let sleeps: number[];

beforeAll(async () => {
  server = await startSandboxServer({ db: testDb.db, faultsEnabled: true });
});
afterAll(() => server.close());
beforeEach(async () => {
  await clearFaults(testDb.db);
  fixture = await createSandboxFixture(testDb.db);
  attempts = [];
  sleeps = [];
});

function makeClient(overrides: Partial<UpstreamClientOptions> = {}) {
  return createUpstreamClient({
    baseUrl: server.apiBaseUrl,
    apiKey: fixture.apiKey,
    uploadHosts: [new URL(server.uploadOrigin).host],
    maxAttempts: 4,
    timeoutMs: 5000,
    onAttempt: (report) => attempts.push(report),
    // Real waits would only slow the suite; the delays chosen are asserted instead.
    retryRuntime: { random: () => 0.5, sleep: async (ms) => void sleeps.push(ms) },
    ...overrides,
  });
}

async function locationToken(client: ReturnType<typeof makeClient>, locationId = fixture.locationId): Promise<string> {
  const userAccessToken = await client.createUserAccessToken({
    email: fixture.owner.email,
    password: fixture.owner.password,
    clientId: fixture.clientId,
    clientSecret: fixture.clientSecret,
  });
  return client.createLocationAccessToken({ userAccessToken, locationId, clientId: fixture.clientId, clientSecret: fixture.clientSecret });
}

// PUTs to upload addresses (update_management_system is a PUT too).
const uploadAttempts = () => attempts.filter((report) => report.method === "PUT" && report.operation !== "updateManagementSystem");

const storedRecords = (type: SandboxRecordType) =>
  testDb.db
    .select()
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.locationId, fixture.locationId), eq(sandboxRecords.type, type)))
    .then((rows) =>
      rows.map((row) => row.data).sort((a, b) => String(a.external_id ?? a.start_at).localeCompare(String(b.external_id ?? b.start_at))),
    );

const zone = "Europe/Berlin";
const { calendars, categories, services } = sampleCatalog;
const contact = (index: number): ContactDetailRecord => ({
  external_id: `c-${index}`,
  email: `c${index}@example.com`,
  email_subscribed: true,
  text_message_subscribed: index % 2 === 0,
  first_name: "Ada",
  last_name: `Lovelace ${index}`,
  mobile_phone_number: `+4915100${String(index).padStart(5, "0")}`,
  birthdate: "1990-12-10",
  gender: "female",
  active_membership: false,
});
// Across the Berlin spring-forward night: 01:30 +01:00 and 03:30 +02:00 are one hour apart.
const appointments: AppointmentRecord[] = [
  {
    external_id: "apt-1",
    start_at: formatUpstreamDateTime(new Date("2026-03-29T00:30:00Z"), zone),
    end_at: formatUpstreamDateTime(new Date("2026-03-29T01:30:00Z"), zone),
    contact_detail_external_id: "c-1",
    service_external_id: "svc-1",
    calendar_external_id: "cal-1",
    price_cents: 2500,
  },
  {
    external_id: "apt-2",
    start_at: formatUpstreamDateTime(new Date("2026-03-30T08:00:00Z"), zone),
    end_at: formatUpstreamDateTime(new Date("2026-03-30T09:00:00Z"), zone),
    contact_detail_external_id: "c-2",
    service_external_id: "svc-1",
    calendar_external_id: "cal-2",
    price_cents: 3000,
  },
];

async function openSessionWithMenu(client: ReturnType<typeof makeClient>, accessToken: string) {
  const call = { accessToken, locationId: fixture.locationId };
  await client.updateManagementSystem({ ...call, managementSystem: fixture.dataSourceName, syncInProgress: true });
  await client.syncCalendars({ ...call, records: calendars });
  await client.syncServiceCategories({ ...call, records: categories });
  await client.syncServices({ ...call, records: services });
  return call;
}

describe("a complete sync session", () => {
  test("open → calendars → categories → services → contacts → vehicles → appointments → openings → close", async () => {
    const client = makeClient();
    const accessToken = await locationToken(client);
    expect(await client.getCurrentUser({ accessToken })).toEqual({ id: fixture.owner.id, email: fixture.owner.email, name: expect.any(String) });

    const call = await openSessionWithMenu(client, accessToken);
    async function* contacts() {
      for (let index = 1; index <= 250; index += 1) yield contact(index);
    }
    const contactUpload = await client.importContactDetails({ ...call, records: contacts });
    expect(contactUpload).toMatchObject({ records: 250, status: 200, attempts: 1 });

    const vehicles = await client.importVehicles({
      ...call,
      records: [{ external_id: "veh-1", contact_detail_external_id: "c-1", make: "VW", model: "Golf", year: 2019 }],
    });
    expect(vehicles.records).toBe(1);

    await client.importAppointments({ ...call, startDate: "2026-03-29", endDate: "2026-03-30", records: appointments });

    const now = Date.now();
    const openings = [
      { start_at: formatUpstreamDateTime(now + 24 * 3600_000, zone), calendar_external_id: "cal-1" },
      { start_at: formatUpstreamDateTime(now + 26 * 3600_000, zone), calendar_external_id: "cal-2" },
    ];
    await client.importOpenings({
      ...call,
      startDate: formatLocalDate(now, zone),
      endDate: formatLocalDate(now + 72 * 3600_000, zone),
      serviceExternalId: "svc-1",
      records: openings,
    });

    const closed = await client.updateManagementSystem({ ...call, managementSystem: fixture.dataSourceName, syncInProgress: false });
    expect(closed).toMatchObject({ management_system_sync_in_progress: false });

    // The sandbox's resulting state is exactly what was sent.
    expect(await storedRecords("calendars")).toEqual(calendars);
    expect(await storedRecords("service_categories")).toEqual(categories);
    expect(await storedRecords("services")).toEqual(services);
    const storedContacts = await storedRecords("contact_details");
    expect(storedContacts).toHaveLength(250);
    expect(storedContacts).toContainEqual(contact(17));
    expect(await storedRecords("vehicles")).toEqual([
      { external_id: "veh-1", contact_detail_external_id: "c-1", make: "VW", model: "Golf", year: 2019 },
    ]);
    expect(await storedRecords("appointments")).toEqual(appointments);
    expect((await storedRecords("appointments"))[0]).toMatchObject({ start_at: "2026-03-29T01:30:00Z+01:00", end_at: "2026-03-29T03:30:00Z+02:00" });
    expect(await storedRecords("openings")).toEqual(openings);
    const [location] = await testDb.db.select().from(sandboxLocations).where(eq(sandboxLocations.id, fixture.locationId));
    expect(location).toMatchObject({ syncInProgress: false, dataSource: fixture.dataSourceName });

    // One report per HTTP exchange, with no secret in any of them.
    expect(attempts.every((report) => report.attempt === 1 && report.status === 200)).toBe(true);
    const reported = JSON.stringify(attempts);
    for (const secret of [fixture.apiKey, fixture.clientSecret, fixture.owner.password, accessToken]) expect(reported).not.toContain(secret);
    expect(uploadAttempts().map((report) => report.operation)).toEqual([
      "importContactDetails",
      "importVehicles",
      "importAppointments",
      "importOpenings",
    ]);
    await client.close();
  });

  test("the single-step methods: request an upload address, then upload to it once", async () => {
    const client = makeClient();
    const accessToken = await locationToken(client);
    const call = await openSessionWithMenu(client, accessToken);
    const address = await client.requestContactDetailsUpload(call);
    expect(address.startsWith(`${server.uploadOrigin}/uploads/`)).toBe(true);
    await client.uploadRecords({ putDataUrl: address, records: [contact(1), contact(2)], schema: ContactDetailRecord });
    expect((await client.requestVehiclesUpload(call)).startsWith(server.uploadOrigin)).toBe(true);
    expect(await client.requestAppointmentsUpload({ ...call, startDate: "2026-03-01", endDate: "2026-03-31" })).toMatch(/^http/);
    expect(await client.requestOpeningsUpload({ ...call, startDate: "2026-03-01", endDate: "2026-03-03", serviceExternalId: "svc-1" })).toMatch(
      /^http/,
    );
    // Reusing a one-time address is refused by the sandbox.
    await expect(client.uploadRecords({ putDataUrl: address, records: [contact(3)], schema: ContactDetailRecord })).rejects.toMatchObject({
      status: 410,
    });
    await client.close();
  });
});

describe("bodies the spec does not show, in every response shape of the sandbox", () => {
  test.each(sandboxResponseShapes)("%s: every endpoint succeeds and the sandbox holds what was sent", async (responseShape) => {
    fixture = await createSandboxFixture(testDb.db, { responseShape });
    const client = makeClient();
    const accessToken = await locationToken(client);
    const me = await client.getCurrentUser({ accessToken });
    if (responseShape === "documented" || responseShape === "extra") expect(me).toMatchObject({ email: fixture.owner.email });
    else expect(me).toEqual({});
    const call = await openSessionWithMenu(client, accessToken);
    expect(await client.importContactDetails({ ...call, records: [contact(1), contact(2)] })).toMatchObject({ records: 2, attempts: 1 });
    await client.importAppointments({ ...call, startDate: "2026-03-29", endDate: "2026-03-30", records: appointments });
    await client.updateManagementSystem({ ...call, managementSystem: fixture.dataSourceName, syncInProgress: false });
    expect(await storedRecords("services")).toEqual(services);
    expect(await storedRecords("contact_details")).toEqual([contact(1), contact(2)]);
    expect(await storedRecords("appointments")).toEqual(appointments);
    expect(attempts.every((report) => report.attempt === 1 && report.status! >= 200 && report.status! < 300)).toBe(true);
    expect(attempts.some((report) => report.status === 204)).toBe(responseShape === "no_content");
    await client.close();
  });
});

describe("errors from the sandbox", () => {
  test("a wrong password is an authentication error, not retried, with no secret in it", async () => {
    const client = makeClient();
    const error = await client
      .createUserAccessToken({
        email: fixture.owner.email,
        password: "wrong-password-1",
        clientId: fixture.clientId,
        clientSecret: fixture.clientSecret,
      })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamAuthenticationError);
    expect(attempts).toHaveLength(1);
    expect(JSON.stringify(error)).not.toContain("wrong-password-1");
  });

  test("records the sandbox refuses come back as a rejection with its reasons", async () => {
    const client = makeClient();
    const call = await openSessionWithMenu(client, await locationToken(client));
    // A reference the client cannot check: the service's calendar does not exist upstream.
    const error = await client
      .syncServices({ ...call, records: [{ ...services[0]!, calendar_external_ids: ["cal-9"] }] })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamRejectedError);
    expect(error).toMatchObject({ status: 422, upstreamCode: "unknown_reference", details: [{ index: 0, field: "calendar_external_ids.0" }] });
  });

  test("an upload the sandbox rejects is not retried", async () => {
    const client = makeClient();
    const call = await openSessionWithMenu(client, await locationToken(client));
    const records = [{ ...appointments[0]!, calendar_external_id: "cal-unknown" }];
    await expect(client.importAppointments({ ...call, startDate: "2026-03-29", endDate: "2026-03-29", records })).rejects.toMatchObject({
      status: 422,
      upstreamCode: "unknown_reference",
    });
    expect(attempts.map((report) => `${report.method} ${report.status}`)).toContain("PUT 422");
    expect(uploadAttempts()).toHaveLength(1);
  });
});

describe("retries with injected faults", () => {
  test("retries a 503 on an API endpoint and counts the attempts", async () => {
    const client = makeClient();
    const accessToken = await locationToken(client);
    attempts = [];
    await injectFault(testDb.db, { target: "users_me", mode: { kind: "status", status: 503 }, count: 2 });
    await client.getCurrentUser({ accessToken });
    expect(attempts.map((report) => report.status)).toEqual([503, 503, 200]);
    expect(sleeps).toEqual([250, 500]);
  });

  test("gives up after maxAttempts", async () => {
    const client = makeClient({ maxAttempts: 3 });
    const accessToken = await locationToken(client);
    attempts = [];
    await injectFault(testDb.db, { target: "users_me", mode: { kind: "status", status: 500 }, count: 5 });
    const error = await client.getCurrentUser({ accessToken }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ attempts: 3, status: 500 });
    expect(attempts).toHaveLength(3);
  });

  test("waits as long as the sandbox's Retry-After says", async () => {
    const client = makeClient();
    const accessToken = await locationToken(client);
    await injectFault(testDb.db, { target: "users_me", mode: { kind: "rate-limit", retryAfterSeconds: 7 }, count: 1 });
    await client.getCurrentUser({ accessToken });
    expect(sleeps).toEqual([7000]);
    expect(attempts.filter((report) => report.status === 429)[0]?.retryDelayMs).toBe(7000);
  });

  test("times out a delayed answer and retries it", async () => {
    const client = makeClient({ timeoutMs: 500 });
    const accessToken = await locationToken(client);
    attempts = [];
    await injectFault(testDb.db, { target: "users_me", mode: { kind: "delay", ms: 2000 }, count: 1 });
    await client.getCurrentUser({ accessToken });
    expect(attempts[0]?.error).toMatch(/timed out/);
    expect(attempts[1]?.status).toBe(200);
  });

  test("a reset upload is retried with a fresh upload address", async () => {
    const client = makeClient();
    const call = await openSessionWithMenu(client, await locationToken(client));
    attempts = [];
    await injectFault(testDb.db, { target: "upload", mode: { kind: "reset" }, count: 1 });
    const outcome = await client.importContactDetails({ ...call, records: () => [contact(1), contact(2), contact(3)] });
    expect(outcome).toMatchObject({ attempts: 2, records: 3 });
    expect(attempts.map((report) => `${report.attempt} ${report.method} ${report.status ?? "error"}`)).toEqual([
      "1 POST 200",
      "1 PUT error",
      "2 POST 200",
      "2 PUT 200",
    ]);
    // Two one-time addresses were issued; only the second received the records.
    const uploads = await testDb.db.select().from(sandboxUploads).where(eq(sandboxUploads.locationId, fixture.locationId));
    expect(uploads).toHaveLength(2);
    expect(uploads.map((upload) => upload.status).sort()).toEqual(["accepted", "issued"]);
    await client.updateManagementSystem({ ...call, managementSystem: fixture.dataSourceName, syncInProgress: false });
    expect(await storedRecords("contact_details")).toEqual([contact(1), contact(2), contact(3)]);
  });

  test("a 503 from the upload address is retried with a fresh address too", async () => {
    const client = makeClient();
    const call = await openSessionWithMenu(client, await locationToken(client));
    attempts = [];
    await injectFault(testDb.db, { target: "upload", mode: { kind: "status", status: 503 }, count: 1 });
    await injectFault(testDb.db, { target: "contact_details", mode: { kind: "status", status: 502 }, count: 1 });
    const outcome = await client.importContactDetails({ ...call, records: [contact(1)] });
    expect(outcome.attempts).toBe(3);
    expect(attempts.map((report) => `${report.method} ${report.status}`)).toEqual(["POST 502", "POST 200", "PUT 503", "POST 200", "PUT 200"]);
  });

  test("a one-shot record iterator is not retried after a reset, since its records are partly consumed", async () => {
    const client = makeClient();
    const call = await openSessionWithMenu(client, await locationToken(client));
    await injectFault(testDb.db, { target: "upload", mode: { kind: "reset" }, count: 1 });
    async function* once() {
      yield contact(1);
    }
    await expect(client.importContactDetails({ ...call, records: once() })).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(uploadAttempts()).toHaveLength(1);
  });

  test("4xx on an API endpoint is not retried", async () => {
    const client = makeClient();
    const accessToken = await locationToken(client);
    attempts = [];
    // Not in sync: the sandbox answers 409.
    await expect(client.syncCalendars({ accessToken, locationId: fixture.locationId, records: calendars })).rejects.toMatchObject({
      status: 409,
      upstreamCode: "not_in_sync",
    });
    expect(attempts).toHaveLength(1);
  });
});

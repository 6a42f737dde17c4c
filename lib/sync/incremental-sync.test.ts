import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncSessions, syncStepItems, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { requestSyncSession } from "./request-session";
import { runSession } from "./run-session";
import { compareType } from "./testing/sync-assertions";
import { createConnectedLocation, noWaits, sandboxRequests, startSyncSandbox, type SyncSandbox } from "./testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
let setup: SyncSandbox;
beforeAll(async () => {
  setup = await startSyncSandbox(db);
});
afterAll(async () => {
  await setup.close();
  await stopJobSender();
});

const now = new Date("2026-03-10T10:00:00Z");

const customer = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  first_name: "Anna",
  last_name: `Alt ${id}`,
  email: `${id}@example.test`,
  email_opt_in: true,
  sms_opt_in: false,
  address_line_1: null,
  address_line_2: null,
  city: "Berlin",
  postal_code: "10115",
  phone: "030 1234567",
  birthdate: "1985-04-12",
  gender: "F",
  member: false,
  updated_at: null,
  ...overrides,
});

const appointment = (id: string, customerId: string, day: string, overrides: Record<string, unknown> = {}) => ({
  id,
  customer_id: customerId,
  service_id: "sv1",
  staff_id: "s1",
  starts_at: `${day} 10:00:00`,
  ends_at: `${day} 10:45:00`,
  price: "25.00",
  status: "booked",
  updated_at: null,
  ...overrides,
});

function initialRows(): SourceRows {
  return {
    staff: [
      { id: "s1", first_name: "Anna", last_name: "Schmidt", display_name: "Anna S." },
      { id: "s2", first_name: "Bob", last_name: "Baker", display_name: null },
    ],
    service_categories: [{ id: "c1", name: "Hair", position: 1 }],
    services: [
      { id: "sv1", name: "Cut", description: "A haircut", bookable: true, price: "25.00", category_id: "c1", staff_ids: ["s1", "s2"], position: 1 },
      { id: "sv2", name: "Colour", description: "Colour", bookable: true, price: "40.00", category_id: "c1", staff_ids: ["s1"], position: 2 },
    ],
    customers: [customer("cu1"), customer("cu2"), customer("cu3"), customer("cu4")],
    appointments: [
      appointment("a1", "cu1", "2026-02-05", { status: "completed" }),
      appointment("a2", "cu2", "2026-02-10", { status: "completed" }),
      appointment("a3", "cu3", "2026-03-12"),
      appointment("a4", "cu4", "2026-04-01"),
      appointment("a5", "cu1", "2026-03-20"),
    ],
    availability: [
      { staff_id: "s1", service_id: "sv1", starts_at: "2026-03-11 10:00:00" },
      { staff_id: "s1", service_id: "sv2", starts_at: "2026-03-11 11:00:00" },
    ],
  };
}

async function sync(locationId: string, rows: SourceRows) {
  const requested = await requestSyncSession(db, { locationId, trigger: "manual", requestedByEmail: null });
  const result = await runSession(testDb, requested.sessionId!, { reader: createArraySourceReader(rows), now, client: noWaits, config: { stepBackoffMs: 0 } });
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
  expect({ result, error: session!.error }).toEqual({ result: "succeeded", error: null });
  const steps = await db.select().from(syncSteps).where(eq(syncSteps.sessionId, session!.id));
  const items = async (name: string) =>
    db.select().from(syncStepItems).where(eq(syncStepItems.stepId, steps.find((step) => step.name === name)!.id)).orderBy(asc(syncStepItems.position));
  return { session: session!, items };
}

describe("an incremental sync", () => {
  it("sends the changed contacts and only the touched date ranges, and empties a service's stale openings", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = initialRows();
    const first = await sync(location.id, rows);
    expect((await first.items("appointments")).map((item) => item.key)).toEqual([
      "2026-02-05..2026-02-28",
      "2026-03-01..2026-03-31",
      "2026-04-01..2026-04-30",
      "2026-05-01..2026-05-31",
      "2026-06-01..2026-06-30",
      "2026-07-01..2026-07-31",
      "2026-08-01..2026-08-31",
      "2026-09-01..2026-09-10",
    ]);
    const requestsBefore = (await sandboxRequests(db, location.upstreamLocationId)).length;

    // Edit a customer, move an appointment, cancel one, delete one; one service has no openings any more.
    rows.customers = rows.customers!.map((row) => (row.id === "cu2" ? { ...row, first_name: "Berta" } : row));
    rows.appointments = rows
      .appointments!.filter((row) => row.id !== "a5")
      .map((row) => (row.id === "a3" ? { ...row, starts_at: "2026-03-15 09:00:00", ends_at: "2026-03-15 09:30:00" } : row.id === "a4" ? { ...row, status: "Canceled" } : row));
    rows.availability = rows.availability!.filter((row) => row.service_id !== "sv2");
    const second = await sync(location.id, rows);

    const contactItems = await second.items("contact_details");
    expect(contactItems.map((item) => [item.key.split(" ")[0], item.recordsSent])).toEqual([["changed", 1]]);
    expect((await second.items("appointments")).map((item) => [item.key, item.recordsSent])).toEqual([
      ["2026-03-12..2026-03-12", 0],
      ["2026-03-15..2026-03-15", 1],
      ["2026-03-20..2026-03-20", 0],
      ["2026-04-01..2026-04-01", 0],
    ]);
    expect((await second.items("openings")).map((item) => [item.key, item.recordsSent])).toEqual([
      ["service sv1", 1],
      ["service sv2", 0],
    ]);
    const upload = (endpoint: string) => [`POST ${endpoint} 200`, "PUT upload 200"];
    expect((await sandboxRequests(db, location.upstreamLocationId)).slice(requestsBefore)).toEqual([
      "PUT update_management_system 200",
      "POST batch_sync_calendars 200",
      "POST batch_sync_service_categories 200",
      "POST batch_sync_services 200",
      ...upload("contact_details"),
      ...[1, 2, 3, 4].flatMap(() => upload("batch_sync_appointments")),
      ...[1, 2].flatMap(() => upload("batch_sync_openings")),
      "PUT update_management_system 200",
    ]);

    for (const type of ["contact_details", "appointments", "openings", "services"] as const) {
      const compared = await compareType(db, { runId: second.session.previewRunId!, locationId: location.id, upstreamLocationId: location.upstreamLocationId, type });
      expect(compared.stored, type).toEqual(compared.expected);
      expect(compared.syncedKeys, type).toEqual(Object.keys(compared.expected).sort());
    }
    const contacts = await compareType(db, { runId: second.session.previewRunId!, locationId: location.id, upstreamLocationId: location.upstreamLocationId, type: "contact_details" });
    expect((contacts.stored.cu2 as { first_name: string }).first_name).toBe("Berta");
  });
});

import fc from "fast-check";
import { eq, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemContext } from "@/lib/operations/context";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { requestSyncSession } from "./request-session";
import { runSession } from "./run-session";
import { sampleMappingAt, sampleNow, sampleSourceRows } from "./testing/sample-source";
import { emptyUpstream, expectedUpstream, upstreamOf, type Upstream } from "./testing/expected-upstream";
import { computeQueuedPreview, createConnectedLocation, noWaits, useSyncSandbox } from "./testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);

type Change =
  | { kind: "add"; customer: number; day: number; status: "booked" | "completed" }
  | { kind: "move"; appointment: number; day: number }
  | { kind: "cancel"; appointment: number; status: "Canceled" | "no_show" }
  | { kind: "delete"; appointment: number }
  | { kind: "edit-customer"; customer: number; firstName: string }
  | { kind: "rename-staff"; staff: number; name: string }
  | { kind: "reprice-service"; service: number; price: number }
  | { kind: "toggle-opening" }
  | { kind: "remove-staff"; staff: number }
  | { kind: "remove-service"; service: number }
  | { kind: "remove-category" }
  | { kind: "delete-customer"; customer: number }
  | { kind: "clear-customer"; customer: number }
  | { kind: "restore-catalogue-and-customers" };

const localDay = (offset: number) => DateTime.fromJSDate(sampleNow, { zone: "Europe/Berlin" }).plus({ days: offset }).toISODate()!;

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({
    kind: fc.constant("add" as const),
    customer: fc.nat(3),
    day: fc.integer({ min: -60, max: 60 }),
    status: fc.constantFrom("booked" as const, "completed" as const),
  }),
  fc.record({ kind: fc.constant("move" as const), appointment: fc.nat(20), day: fc.integer({ min: -60, max: 60 }) }),
  fc.record({ kind: fc.constant("cancel" as const), appointment: fc.nat(20), status: fc.constantFrom("Canceled" as const, "no_show" as const) }),
  fc.record({ kind: fc.constant("delete" as const), appointment: fc.nat(20) }),
  fc.record({ kind: fc.constant("edit-customer" as const), customer: fc.nat(3), firstName: fc.constantFrom("Berta", "Carla", "Dora") }),
  fc.record({ kind: fc.constant("rename-staff" as const), staff: fc.nat(1), name: fc.constantFrom("Eve", "Finn") }),
  fc.record({ kind: fc.constant("reprice-service" as const), service: fc.nat(1), price: fc.integer({ min: 1, max: 200 }) }),
  fc.constant({ kind: "toggle-opening" as const }),
  fc.record({ kind: fc.constant("remove-staff" as const), staff: fc.nat(1) }),
  fc.record({ kind: fc.constant("remove-service" as const), service: fc.nat(1) }),
  fc.constant({ kind: "remove-category" as const }),
  fc.record({ kind: fc.constant("delete-customer" as const), customer: fc.nat(3) }),
  fc.record({ kind: fc.constant("clear-customer" as const), customer: fc.nat(3) }),
  fc.constant({ kind: "restore-catalogue-and-customers" as const }),
);

let added = 0;
// The source keeps the updated_at contract: every row it adds or changes carries the time of it (an incremental preview
// re-reads only those); the sample's rows were last changed long ago.
const longAgo = new Date("2020-01-01T00:00:00Z");

function apply(rows: SourceRows, next: Change): void {
  const appointments = rows.appointments!;
  const pick = (index: number) => {
    const row = appointments[index % Math.max(1, appointments.length)];
    if (row) row.updated_at = new Date();
    return row;
  };
  const customer = (index: number) => {
    const row = rows.customers!.find((candidate) => candidate.id === `cu${index + 1}`);
    if (row) row.updated_at = new Date();
    return row;
  };
  switch (next.kind) {
    case "add": {
      const day = localDay(next.day);
      appointments.push({
        id: `n${++added}`,
        customer_id: `cu${next.customer + 1}`,
        service_id: "sv1",
        staff_id: "s1",
        starts_at: `${day} 14:00:00`,
        ends_at: `${day} 14:30:00`,
        price: "25.00",
        status: next.status,
        updated_at: new Date(),
      });
      return;
    }
    case "move": {
      const row = pick(next.appointment);
      if (row) Object.assign(row, { starts_at: `${localDay(next.day)} 11:00:00`, ends_at: `${localDay(next.day)} 11:45:00` });
      return;
    }
    case "cancel": {
      const row = pick(next.appointment);
      if (row) row.status = next.status;
      return;
    }
    case "delete": {
      if (appointments.length) appointments.splice(next.appointment % appointments.length, 1);
      return;
    }
    case "edit-customer": {
      const edited = customer(next.customer);
      if (edited) edited.first_name = next.firstName;
      return;
    }
    case "rename-staff": {
      const staff = rows.staff!.find((row) => row.id === `s${next.staff + 1}`);
      if (staff) staff.display_name = next.name;
      return;
    }
    case "reprice-service": {
      const service = rows.services!.find((row) => row.id === `sv${next.service + 1}`);
      if (service) service.price = `${next.price}.00`;
      return;
    }
    case "remove-staff":
      rows.staff = rows.staff!.filter((row) => row.id !== `s${next.staff + 1}`);
      return;
    case "remove-service":
      rows.services = rows.services!.filter((row) => row.id !== `sv${next.service + 1}`);
      return;
    case "remove-category":
      rows.service_categories = [];
      return;
    case "delete-customer":
      rows.customers = rows.customers!.filter((row) => row.id !== `cu${next.customer + 1}`);
      return;
    case "clear-customer": {
      const cleared = customer(next.customer);
      if (cleared) Object.assign(cleared, { email: null, phone: null, address_line_2: null, city: "" });
      return;
    }
    case "restore-catalogue-and-customers": {
      const sample = sampleSourceRows();
      rows.staff = sample.staff;
      rows.service_categories = sample.service_categories;
      rows.services = sample.services;
      const back = sample.customers!.filter((row) => !rows.customers!.some((kept) => kept.id === row.id));
      rows.customers = [...rows.customers!, ...back.map((row) => ({ ...row, updated_at: new Date() }))];
      return;
    }
    case "toggle-opening": {
      const has = rows.availability!.some((slot) => slot.service_id === "sv2");
      rows.availability = has
        ? rows.availability!.filter((slot) => slot.service_id !== "sv2")
        : [...rows.availability!, { staff_id: "s1", service_id: "sv2", starts_at: `${localDay(1)} 11:00:00` }];
      return;
    }
  }
}

const acceptedAppointmentDays = (locationId: string) =>
  db.execute<{ key: string; day: string | null }>(
    sql`select record_key as key, appointment_date::text as day from synced_records
        where location_id = ${locationId} and record_type = 'appointments' order by 1`,
  );

const heldAppointmentDays = (upstreamLocationId: string) =>
  db.execute<{ key: string; day: string | null }>(
    sql`select key, local_date::text as day from sandbox.records where location_id = ${upstreamLocationId} and type = 'appointments' order by 1`,
  );

describe("random source changes, each followed by a sync", () => {
  it("leave the sandbox holding what the policies say, for every resource", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 5 }), async (changes) => {
        const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
        const rows = structuredClone(sampleSourceRows());
        for (const row of [...rows.customers!, ...rows.appointments!]) row.updated_at = longAgo;
        let expected: Upstream = emptyUpstream();
        for (const next of [null, ...changes]) {
          if (next) apply(rows, next);
          const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
          const reader = createArraySourceReader(structuredClone(rows));
          const result = await runSession(systemContext(testDb.db), {
            sessionId: requested.sessionId!,
            reader,
            now: sampleNow,
            client: noWaits,
            config: { stepBackoffMs: 0 },
          });
          // The preview job's part: a streamed first sync leaves the location's first preview queued.
          await computeQueuedPreview(testDb.db, location.id, reader, sampleNow);
          const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
          expect({ result, error: session!.error }).toEqual({ result: "succeeded", error: null });
          expected = expectedUpstream(expected, rows, sampleMappingAt());
          expect(Object.keys(expected.contact_details).length + Object.keys(expected.calendars).length).toBeGreaterThan(0);
          expect(await upstreamOf(db, location.upstreamLocationId), `after ${JSON.stringify(next)}`).toEqual(expected);
          // What the next session plans from: each appointment the upstream holds, recorded on the day it holds it.
          expect(await acceptedAppointmentDays(location.id), `after ${JSON.stringify(next)}`).toEqual(
            await heldAppointmentDays(location.upstreamLocationId!),
          );
        }
      }),
      { numRuns: 8, seed: Number(process.env.SYNC_PROPERTY_SEED ?? 20261124) },
    );
  }, 240_000);
});

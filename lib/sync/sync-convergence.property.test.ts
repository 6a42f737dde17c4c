import fc from "fast-check";
import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { requestSyncSession } from "./request-session";
import { runSession } from "./run-session";
import { compareType } from "./testing/sync-assertions";
import { sampleNow, sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, noWaits, useSyncSandbox } from "./testing/sync-test-setup";

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
  | { kind: "toggle-opening" };

const localDay = (offset: number) => DateTime.fromJSDate(sampleNow, { zone: "Europe/Berlin" }).plus({ days: offset }).toISODate()!;

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant("add" as const), customer: fc.nat(3), day: fc.integer({ min: -60, max: 60 }), status: fc.constantFrom("booked" as const, "completed" as const) }),
  fc.record({ kind: fc.constant("move" as const), appointment: fc.nat(20), day: fc.integer({ min: -60, max: 60 }) }),
  fc.record({ kind: fc.constant("cancel" as const), appointment: fc.nat(20), status: fc.constantFrom("Canceled" as const, "no_show" as const) }),
  fc.record({ kind: fc.constant("delete" as const), appointment: fc.nat(20) }),
  fc.record({ kind: fc.constant("edit-customer" as const), customer: fc.nat(3), firstName: fc.constantFrom("Berta", "Carla", "Dora") }),
  fc.record({ kind: fc.constant("rename-staff" as const), staff: fc.nat(1), name: fc.constantFrom("Eve", "Finn") }),
  fc.record({ kind: fc.constant("reprice-service" as const), service: fc.nat(1), price: fc.integer({ min: 1, max: 200 }) }),
  fc.constant({ kind: "toggle-opening" as const }),
);

let added = 0;

function apply(rows: SourceRows, next: Change): void {
  const appointments = rows.appointments!;
  const pick = (index: number) => appointments[index % Math.max(1, appointments.length)];
  switch (next.kind) {
    case "add": {
      const day = localDay(next.day);
      appointments.push({ id: `n${++added}`, customer_id: `cu${next.customer + 1}`, service_id: "sv1", staff_id: "s1", starts_at: `${day} 14:00:00`, ends_at: `${day} 14:30:00`, price: "25.00", status: next.status, updated_at: null });
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
    case "edit-customer":
      rows.customers![next.customer]!.first_name = next.firstName;
      return;
    case "rename-staff":
      rows.staff![next.staff]!.display_name = next.name;
      return;
    case "reprice-service":
      rows.services![next.service]!.price = `${next.price}.00`;
      return;
    case "toggle-opening": {
      const has = rows.availability!.some((slot) => slot.service_id === "sv2");
      rows.availability = has
        ? rows.availability!.filter((slot) => slot.service_id !== "sv2")
        : [...rows.availability!, { staff_id: "s1", service_id: "sv2", starts_at: `${localDay(1)} 11:00:00` }];
      return;
    }
  }
}

describe("random source changes, each followed by a sync", () => {
  it("leave the sandbox holding exactly the valid mapped source, for every resource", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 4 }), async (changes) => {
        const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
        const rows = structuredClone(sampleSourceRows());
        for (const next of [null, ...changes]) {
          if (next) apply(rows, next);
          const requested = await requestSyncSession(db, { locationId: location.id, trigger: "manual", requestedByEmail: null });
          const result = await runSession(testDb, requested.sessionId!, { reader: createArraySourceReader(structuredClone(rows)), now: sampleNow, client: noWaits, config: { stepBackoffMs: 0 } });
          const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
          expect({ result, error: session!.error }).toEqual({ result: "succeeded", error: null });
          for (const type of ["calendars", "service_categories", "services", "contact_details", "appointments", "openings"] as const) {
            const compared = await compareType(db, { locationId: location.id, upstreamLocationId: location.upstreamLocationId, type });
            expect(compared.stored, `${type} after ${JSON.stringify(next)}`).toEqual(compared.expected);
          }
        }
      }),
      { numRuns: 8, seed: Number(process.env.SYNC_PROPERTY_SEED ?? 20261123) },
    );
  }, 180_000);
});

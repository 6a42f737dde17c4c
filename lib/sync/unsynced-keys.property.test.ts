import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { locations, previewRuns } from "@/db/schema";
import { updateLocation } from "@/lib/locations/update-location";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemActorAs } from "@/lib/auth/permissions";
import { systemContext } from "@/lib/operations/context";
import { computePreview } from "@/lib/preview/compute-preview";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import type { SourceReader } from "@/lib/source/source-reader";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment, sourceCustomer } from "@/lib/source/testing/source-row-factories";
import { startReplay } from "./replay/start-replay";
import { ReplayInput } from "./session-inputs";
import { requestSyncSession } from "./request-session";
import { resumeSession } from "./session-actions";
import { keysMissingFromLedger } from "./testing/ledger-invariant";
import { sampleNow, sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, runManualTestSync, runTestSync, useSyncSandbox } from "./testing/sync-test-setup";
import { unsyncedKeysKnown } from "./unsynced-keys";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);

// Random source changes and operations on a location whose unsynced keys are trusted; after each operation every key the
// whole comparison selects must be among them. The source's clock is controlled (an hour per step), so an incremental
// run re-reads only what changed since its base run (less the margin), as in production.

type Change =
  | { kind: "edit-customer"; customer: number; name: string }
  | { kind: "delete-customer"; customer: number }
  | { kind: "add-customer"; customer: number }
  | { kind: "clear-customer"; customer: number }
  | { kind: "duplicate-customer"; customer: number }
  | { kind: "move"; appointment: number; day: number }
  | { kind: "cancel"; appointment: number }
  | { kind: "delete-appointment"; appointment: number }
  | { kind: "add-appointment"; customer: number; day: number }
  | { kind: "remove-staff" }
  | { kind: "remove-service" }
  | { kind: "restore-catalogue" }
  | { kind: "edit-vehicle"; vehicle: number; model: string };

type Operation =
  | { kind: "change"; change: Change }
  | { kind: "refresh" }
  | { kind: "rebuild" }
  | { kind: "sync" }
  | { kind: "next-day" }
  | { kind: "edit-location"; field: "automotive" | "timeZone" }
  | { kind: "failed-sync-then-resume"; resume: boolean }
  | { kind: "replay"; steps: ("contact_details" | "appointments")[] };

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant("edit-customer" as const), customer: fc.nat(5), name: fc.constantFrom("Berta", "Carla") }),
  fc.record({ kind: fc.constant("delete-customer" as const), customer: fc.nat(5) }),
  fc.record({ kind: fc.constant("add-customer" as const), customer: fc.nat(5) }),
  fc.record({ kind: fc.constant("clear-customer" as const), customer: fc.nat(5) }),
  fc.record({ kind: fc.constant("duplicate-customer" as const), customer: fc.nat(5) }),
  fc.record({ kind: fc.constant("move" as const), appointment: fc.nat(10), day: fc.integer({ min: -40, max: 200 }) }),
  fc.record({ kind: fc.constant("cancel" as const), appointment: fc.nat(10) }),
  fc.record({ kind: fc.constant("delete-appointment" as const), appointment: fc.nat(10) }),
  fc.record({ kind: fc.constant("add-appointment" as const), customer: fc.nat(5), day: fc.integer({ min: -40, max: 200 }) }),
  fc.constant({ kind: "remove-staff" as const }),
  fc.constant({ kind: "remove-service" as const }),
  fc.constant({ kind: "restore-catalogue" as const }),
  fc.record({ kind: fc.constant("edit-vehicle" as const), vehicle: fc.nat(1), model: fc.constantFrom("Golf", "Polo") }),
);

const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 4, arbitrary: change.map((next) => ({ kind: "change" as const, change: next })) },
  { weight: 2, arbitrary: fc.constant({ kind: "refresh" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "rebuild" as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: "sync" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "next-day" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("edit-location" as const), field: fc.constantFrom("automotive" as const, "timeZone" as const) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("failed-sync-then-resume" as const), resume: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("replay" as const),
      steps: fc.constantFrom<("contact_details" | "appointments")[]>(["contact_details"], ["appointments"], ["contact_details", "appointments"]),
    }),
  },
);

const localDay = (offset: number) => DateTime.fromJSDate(sampleNow, { zone: "Europe/Berlin" }).plus({ days: offset }).toISODate()!;
let added = 0;

function apply(rows: SourceRows, next: Change, at: Date): void {
  const customers = rows.customers!;
  const appointments = rows.appointments!;
  const customerId = (index: number) => `cu${index + 1}`;
  const appointment = (index: number) => appointments[index % Math.max(1, appointments.length)];
  const sample = sampleSourceRows();
  switch (next.kind) {
    case "edit-customer":
      for (const row of customers) if (row.id === customerId(next.customer)) Object.assign(row, { first_name: next.name, updated_at: at });
      return;
    case "delete-customer":
      rows.customers = customers.filter((row) => row.id !== customerId(next.customer));
      return;
    case "add-customer":
      if (!customers.some((row) => row.id === customerId(next.customer)))
        customers.push(sourceCustomer(customerId(next.customer), { updated_at: at }));
      return;
    case "clear-customer":
      for (const row of customers)
        if (row.id === customerId(next.customer)) Object.assign(row, { email: null, phone: null, address_line_2: null, updated_at: at });
      return;
    case "duplicate-customer":
      customers.push(sourceCustomer(` ${customerId(next.customer)}`, { first_name: "Doppel", updated_at: at }));
      return;
    case "move": {
      const row = appointment(next.appointment);
      if (row) Object.assign(row, { starts_at: `${localDay(next.day)} 11:00:00`, ends_at: `${localDay(next.day)} 11:45:00`, updated_at: at });
      return;
    }
    case "cancel": {
      const row = appointment(next.appointment);
      if (row) Object.assign(row, { status: "canceled", updated_at: at });
      return;
    }
    case "delete-appointment":
      if (appointments.length) appointments.splice(next.appointment % appointments.length, 1);
      return;
    case "add-appointment":
      appointments.push(sourceAppointment(`n${++added}`, localDay(next.day), { customer_id: customerId(next.customer), updated_at: at }));
      return;
    case "remove-staff":
      rows.staff = rows.staff!.filter((row) => row.id !== "s1");
      return;
    case "remove-service":
      rows.services = rows.services!.filter((row) => row.id !== "sv1");
      return;
    case "edit-vehicle":
      for (const row of rows.vehicles!) if (row.id === `v${next.vehicle + 1}`) Object.assign(row, { model: next.model, updated_at: at });
      return;
    case "restore-catalogue":
      rows.staff = sample.staff;
      rows.services = sample.services;
      return;
  }
}

describe("the unsynced keys of a location, under random changes and operations", () => {
  it("hold every key the whole comparison selects while they are trusted", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (operations) => {
        const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
        const rows = sampleSourceRows();
        const long = new Date("2026-01-01T00:00:00Z");
        rows.vehicles = [1, 2].map((index) => ({
          id: `v${index}`,
          customer_id: `cu${index}`,
          make: "VW",
          model: "Golf",
          year: 2020,
          license_plate: `B-X ${index}`,
          vin: null,
          updated_at: long,
        }));
        for (const row of [...rows.customers!, ...rows.appointments!]) row.updated_at = long;
        let clock = new Date("2026-03-01T00:00:00Z");
        const reader = (): SourceReader => {
          const at = new Date(clock);
          return { ...createArraySourceReader(structuredClone(rows)), clock: async () => at };
        };
        const tick = () => (clock = new Date(clock.getTime() + 3_600_000));
        let now = sampleNow;
        const options = () => ({ config: { stepAttempts: 1 }, client: { maxAttempts: 1 }, now });
        // Streamed first sync, its preview, then a full resync from it: the keys are trusted from here on.
        await runManualTestSync(db, location.id, reader(), options());
        tick();
        const full = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null, full: true });
        await runTestSync(db, full.sessionId!, reader(), options());
        expect(await unsyncedKeysKnown(db, location.id)).toBe(true);
        tick();
        const done: Operation[] = [];
        // Since a streamed session (a replay, a quiet sync's gained days), synced_records may hold what the preview has
        // not read yet: the next preview run reads it, before any plan (a sync computes its own).
        let sinceStreamed = false;
        let streamed = false;
        for (const next of operations) {
          done.push(next);
          if (next.kind === "change") apply(rows, next.change, clock);
          else if (next.kind === "next-day") now = new Date(now.getTime() + 86_400_000);
          else if (next.kind === "edit-location") {
            const [current] = await db.select().from(locations).where(eq(locations.id, location.id));
            const edit =
              next.field === "automotive"
                ? { automotive: !current!.automotive }
                : { timeZone: current!.timeZone === "Europe/Berlin" ? "Europe/Lisbon" : "Europe/Berlin" };
            await updateLocation({ db, actor: systemActor }, { locationId: location.id, ...edit });
          } else if (next.kind === "refresh" || next.kind === "rebuild") {
            const [run] = await db
              .insert(previewRuns)
              .values({ locationId: location.id, requestedByEmail: null, rebuild: next.kind === "rebuild" })
              .returning();
            await computePreview(systemContext(db), { runId: run!.id, reader: reader(), now });
          } else if (next.kind === "sync") {
            streamed = (await runManualTestSync(db, location.id, reader(), options())).streamed;
          } else if (next.kind === "failed-sync-then-resume") {
            await injectFault(db, { target: "batch_sync_appointments", mode: { kind: "status", status: 503 }, count: 50 });
            const failed = await runManualTestSync(db, location.id, reader(), { ...options(), expect: "failed" }).catch(() => null);
            await clearFaults(db);
            if (failed && next.resume) {
              expect(await keysMissingFromLedger(db, location.id), JSON.stringify(done)).toEqual([]);
              tick();
              const resumed = await resumeSession({ db, actor: systemActor }, { sessionId: failed.id });
              await runTestSync(db, resumed.sessionId!, reader(), options());
            }
          } else {
            const { sessionId } = await startReplay(
              { db, actor: systemActorAs("support@example.test") },
              { ...ReplayInput.parse({ steps: next.steps, reason: "test replay" }), locationId: location.id },
            );
            await runTestSync(db, sessionId, reader(), options());
          }
          tick();
          if (next.kind === "replay" || (next.kind === "sync" && streamed)) sinceStreamed = true;
          else if (next.kind !== "change" && next.kind !== "next-day" && next.kind !== "edit-location") sinceStreamed = false;
          if (!sinceStreamed) expect(await keysMissingFromLedger(db, location.id), JSON.stringify(done)).toEqual([]);
        }
      }),
      { numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 5), seed: Number(process.env.SYNC_PROPERTY_SEED ?? 20261124) },
    );
  }, 600_000);
});

import { afterEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemContext } from "@/lib/operations/context";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import type { SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment } from "@/lib/source/testing/source-row-factories";
import { getSessionView } from "./read-session-view";
import { requestSyncSession } from "./request-session";
import type { OptionalStepName } from "./step-names";
import { resumeSession } from "./session-actions";
import { sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, runManualTestSync, runTestSync, sandboxStored, useSyncSandbox } from "./testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
afterEach(() => clearFaults(db));

type Location = Awaited<ReturnType<typeof createConnectedLocation>>;

async function runWithSteps(location: Location, rows: SourceRows, optionalSteps: OptionalStepName[], expected: "succeeded" | "failed" = "succeeded") {
  const requested = await requestSyncSession(systemContext(db), {
    locationId: location.id,
    trigger: "manual",
    requestedByEmail: null,
    optionalSteps,
  });
  return runTestSync(db, requested.sessionId!, rows, { expect: expected, config: { stepBackoffMs: 0, stepAttempts: 1 }, client: { maxAttempts: 1 } });
}

/** A stylist hired since the last catalogue sync, with a booking and an opening. */
function withNewStylist(rows: SourceRows): SourceRows {
  return {
    ...rows,
    staff: [...rows.staff!, { id: "s3", first_name: "Cem", last_name: "Yilmaz", display_name: null }],
    appointments: [...rows.appointments!, sourceAppointment("a9", "2026-03-13", { customer_id: "cu2", staff_id: "s3", service_id: "sv1" })],
    availability: [...rows.availability!, { staff_id: "s3", service_id: "sv1", starts_at: "2026-03-11 12:00:00" }],
  };
}

const stored = async (location: Location, type: "calendars" | "services" | "appointments" | "openings") =>
  sandboxStored(db, location.upstreamLocationId, type) as Promise<Map<string, Record<string, unknown>>>;

/** The openings step as the session page reads it: invalid on the step, and left out by its imports. */
async function openingsStepCounts(sessionId: string) {
  const view = await getSessionView({ db, actor: systemActor }, { sessionId });
  const step = view.steps.find((candidate) => candidate.name === "openings")!;
  return { invalid: step.recordsInvalid, leftOut: step.items.reduce((sum, item) => sum + item.recordsLeftOut, 0) };
}

describe("a session with catalogue steps left out", () => {
  it("sends a booking with a stylist the upstream does not hold yet without its calendar, and the next full sync adds it", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    // Rows that say when they changed: a preview run reads again only what changed since the run before.
    const changedAt = (source: SourceRows): SourceRows => ({
      ...source,
      appointments: source.appointments!.map((appointment) => ({ ...appointment, updated_at: new Date("2026-03-01T08:00:00Z") })),
    });
    await runManualTestSync(db, location.id, changedAt(sampleSourceRows()));
    const rows = changedAt(withNewStylist(sampleSourceRows()));

    const withoutCatalogue = await runWithSteps(location, rows, []);
    expect([...(await stored(location, "calendars")).keys()].sort()).toEqual(["s1", "s2"]);
    const appointments = await stored(location, "appointments");
    expect(appointments.get("a9")).toMatchObject({ external_id: "a9", service_external_id: "sv1" });
    expect(appointments.get("a9")).not.toHaveProperty("calendar_external_id");
    expect(appointments.get("a3")).toMatchObject({ calendar_external_id: "s1" });
    // The opening with the new stylist cannot be sent (an opening needs its calendar); the others are.
    expect([...(await stored(location, "openings")).values()].map((opening) => opening.calendar_external_id)).toEqual(["s1", "s1"]);
    // The session's openings step says it left one out, as a streamed session's does.
    expect(await openingsStepCounts(withoutCatalogue.id)).toEqual({ invalid: 1, leftOut: 1 });

    // What was sent is recorded as sent: once the calendars go, the booking is sent again with its stylist.
    const withCatalogue = await runWithSteps(location, rows, ["calendars", "service_categories", "services"]);
    expect(await openingsStepCounts(withCatalogue.id)).toEqual({ invalid: 0, leftOut: 0 });
    expect([...(await stored(location, "calendars")).keys()].sort()).toEqual(["s1", "s2", "s3"]);
    expect((await stored(location, "appointments")).get("a9")).toMatchObject({ calendar_external_id: "s3" });
    expect([...(await stored(location, "openings")).values()].map((opening) => opening.calendar_external_id).sort()).toEqual(["s1", "s1", "s3"]);
  });

  it("sends services without the calendars the upstream does not hold when only the calendars step is left out", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await runManualTestSync(db, location.id, sampleSourceRows());
    const rows = withNewStylist(sampleSourceRows());
    rows.services = rows.services!.map((service) => (service.id === "sv1" ? { ...service, staff_ids: ["s1", "s2", "s3"] } : service));

    await runWithSteps(location, rows, ["service_categories", "services"]);
    expect((await stored(location, "services")).get("sv1")).toMatchObject({ calendar_external_ids: ["s1", "s2"] });
    expect((await stored(location, "appointments")).get("a9")).not.toHaveProperty("calendar_external_id");
  });

  it("a first sync without its catalogue names none of it, also in its resume after a failure at appointments", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await injectFault(db, { target: "batch_sync_appointments", mode: { kind: "status", status: 502 }, count: 1000 });
    const failed = await runWithSteps(location, sampleSourceRows(), [], "failed");
    expect(failed.currentStep).toBe("appointments");
    await clearFaults(db);

    const resumed = await resumeSession({ db, actor: systemActor }, { sessionId: failed.id });
    const session = await runTestSync(db, resumed.sessionId!, withNewStylist(sampleSourceRows()));
    expect(session.streamed).toBe(true);
    expect((await stored(location, "calendars")).size).toBe(0);
    const appointments = [...(await stored(location, "appointments")).values()];
    expect(appointments.map((appointment) => appointment.external_id).sort()).toEqual(["a1", "a2", "a3", "a4", "a5", "a9"]);
    for (const appointment of appointments) {
      expect(appointment).not.toHaveProperty("calendar_external_id");
      expect(appointment).not.toHaveProperty("service_external_id");
    }
  });

  it("a first sync without its catalogue is sent whole by the next session that sends the catalogue, the source unchanged", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await runWithSteps(location, sampleSourceRows(), []);
    expect((await stored(location, "appointments")).get("a3")).not.toHaveProperty("calendar_external_id");
    expect((await stored(location, "openings")).size).toBe(0);

    // Nothing changed in the source, yet this is no quiet session: the upstream does not hold what the source gives.
    const session = await runWithSteps(location, sampleSourceRows(), ["calendars", "service_categories", "services"]);
    expect(session.quiet).toBe(false);
    expect((await stored(location, "appointments")).get("a3")).toMatchObject({ calendar_external_id: "s1", service_external_id: "sv1" });
    expect((await stored(location, "openings")).size).toBe(2);
  });

  it("a resume after a failure at appointments sends the catalogue again, with what the later steps name", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await runManualTestSync(db, location.id, sampleSourceRows());
    await injectFault(db, { target: "batch_sync_appointments", mode: { kind: "status", status: 502 }, count: 1000 });
    const rows = withNewStylist(sampleSourceRows());
    const failed = await runWithSteps(location, rows, ["calendars", "service_categories", "services"], "failed");
    expect(failed.currentStep).toBe("appointments");
    await clearFaults(db);

    // A fourth stylist, hired while the session was failed, and booked.
    rows.staff = [...rows.staff!, { id: "s4", first_name: "Dana", last_name: "Ek", display_name: null }];
    rows.appointments = [...rows.appointments!, sourceAppointment("a10", "2026-03-13", { customer_id: "cu3", staff_id: "s4" })];
    const resumed = await resumeSession({ db, actor: systemActor }, { sessionId: failed.id });
    await runTestSync(db, resumed.sessionId!, rows);
    expect([...(await stored(location, "calendars")).keys()].sort()).toEqual(["s1", "s2", "s3", "s4"]);
    expect((await stored(location, "appointments")).get("a10")).toMatchObject({ calendar_external_id: "s4" });
  });

  it("a resume of a session that left the catalogue out still names only what the upstream holds", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await runManualTestSync(db, location.id, sampleSourceRows());
    await injectFault(db, { target: "batch_sync_appointments", mode: { kind: "status", status: 502 }, count: 1000 });
    const rows = withNewStylist(sampleSourceRows());
    const failed = await runWithSteps(location, rows, [], "failed");
    await clearFaults(db);

    const resumed = await resumeSession({ db, actor: systemActor }, { sessionId: failed.id });
    await runTestSync(db, resumed.sessionId!, rows);
    expect([...(await stored(location, "calendars")).keys()].sort()).toEqual(["s1", "s2"]);
    expect((await stored(location, "appointments")).get("a9")).not.toHaveProperty("calendar_external_id");
  });
});

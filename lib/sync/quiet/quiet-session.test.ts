import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { previewRuns, syncStepItems, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemContext } from "@/lib/operations/context";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import type { SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment } from "@/lib/source/testing/source-row-factories";
import { requestSyncSession } from "../request-session";
import { cancelSession } from "../session-actions";
import { emptyUpstream, expectedUpstream, upstreamOf } from "../testing/expected-upstream";
import { sampleMappingAt, sampleNow, sampleSourceRows } from "../testing/sample-source";
import { createConnectedLocation, runManualTestSync, sandboxRequests, useSyncSandbox, type TestSyncOptions } from "../testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
const open = "PUT update_management_system 200";
const close = open;
// A manual session sends the calendars, categories and services (full replacements of a few records) every time.
const catalogue = ["POST batch_sync_calendars 200", "POST batch_sync_service_categories 200", "POST batch_sync_services 200"];
const openAndClose = [open, ...catalogue, close];

/** The sample, and an appointment naming a customer the source does not have: left out by every session. */
function rowsWithOneInvalid(): SourceRows {
  const rows = sampleSourceRows();
  rows.appointments!.push(sourceAppointment("a9", "2026-03-25", { customer_id: "cu9" }));
  return rows;
}

async function syncAndWatch(locationId: string, upstreamLocationId: string, rows: SourceRows, options: TestSyncOptions = {}) {
  const requestsBefore = (await sandboxRequests(db, upstreamLocationId)).length;
  const runsBefore = await db.select({ id: previewRuns.id }).from(previewRuns).where(eq(previewRuns.locationId, locationId));
  const session = await runManualTestSync(db, locationId, rows, options);
  const steps = await db.select().from(syncSteps).where(eq(syncSteps.sessionId, session.id)).orderBy(asc(syncSteps.position));
  const items = async (name: string) =>
    (
      await db
        .select()
        .from(syncStepItems)
        .where(eq(syncStepItems.stepId, steps.find((step) => step.name === name)!.id))
        .orderBy(asc(syncStepItems.position))
    ).map((item) => [item.key, item.recordsSent]);
  const runsAfter = await db.select({ id: previewRuns.id }).from(previewRuns).where(eq(previewRuns.locationId, locationId));
  return {
    session,
    steps,
    items,
    sent: (await sandboxRequests(db, upstreamLocationId)).slice(requestsBefore),
    newPreviewRuns: runsAfter.filter((run) => !runsBefore.some((before) => before.id === run.id)).length,
  };
}

const invalidOf = (steps: { name: string; recordsInvalid: number }[], name: string) => steps.find((step) => step.name === name)!.recordsInvalid;

describe("a quiet session (nothing in the source changed since the last session succeeded)", () => {
  it("computes no preview, sends nothing but the open, the catalogue and the close, and still says what it leaves out", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = rowsWithOneInvalid();
    const first = await syncAndWatch(location.id, location.upstreamLocationId, rows);
    expect(first.session).toMatchObject({ streamed: true, quiet: false });
    expect(invalidOf(first.steps, "appointments")).toBe(1);

    const second = await syncAndWatch(location.id, location.upstreamLocationId, rows);
    expect(second.session).toMatchObject({ status: "succeeded", quiet: true, previewRunId: null });
    expect(second.newPreviewRuns).toBe(0);
    expect(second.sent).toEqual(openAndClose);
    expect(await second.items("contact_details")).toEqual([]);
    expect(await second.items("appointments")).toEqual([]);
    // Openings are read again (the 72 hours move): unchanged, so none is imported.
    expect(await second.items("openings")).toEqual([]);
    // What is not sent is what the last session left out: the source is the same.
    expect(invalidOf(second.steps, "appointments")).toBe(1);
    expect(await upstreamOf(db, location.upstreamLocationId)).toEqual(expectedUpstream(emptyUpstream(), rows, sampleMappingAt(sampleNow)));
  });

  it("a day later imports only the day the appointment window gained, checked against the contacts the upstream holds", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    // 11 September is one day past the first sync's six months: a6 (a known customer) and a7 (an unknown one) wait for it.
    rows.appointments!.push(sourceAppointment("a6", "2026-09-11", { customer_id: "cu2" }));
    rows.appointments!.push(sourceAppointment("a7", "2026-09-11", { customer_id: "cu9" }));
    await syncAndWatch(location.id, location.upstreamLocationId, rows);
    expect((await upstreamOf(db, location.upstreamLocationId)).appointments.a6).toBeUndefined();

    const dayLater = new Date(sampleNow.getTime() + 22 * 3600_000);
    const second = await syncAndWatch(location.id, location.upstreamLocationId, rows, { now: dayLater });
    expect(second.session).toMatchObject({ quiet: true, previewRunId: null });
    expect(await second.items("appointments")).toEqual([["2026-09-11..2026-09-11", 1]]);
    expect(second.sent).toEqual([open, ...catalogue, "POST batch_sync_appointments 200", "PUT upload 200", close]);
    expect(invalidOf(second.steps, "appointments")).toBe(1);
    const held = await upstreamOf(db, location.upstreamLocationId);
    expect(held.appointments.a6).toMatchObject({ contact_detail_external_id: "cu2" });
    expect(held).toEqual(expectedUpstream(emptyUpstream(), rows, sampleMappingAt(dayLater)));
  });

  it("a visit it sent on a gained day and the source deleted since is removed by the next session", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    // 11 September is one day past the first sync's six months: only the quiet session a day later sends it.
    rows.appointments!.push(sourceAppointment("a6", "2026-09-11", { customer_id: "cu2" }));
    const longAgo = new Date("2020-01-01T00:00:00Z");
    for (const row of [...rows.customers!, ...rows.appointments!]) row.updated_at = longAgo;
    await runManualTestSync(db, location.id, rows);
    const dayLater = new Date(sampleNow.getTime() + 22 * 3600_000);
    const quiet = await runManualTestSync(db, location.id, rows, { now: dayLater });
    expect(quiet.quiet).toBe(true);
    expect((await upstreamOf(db, location.upstreamLocationId)).appointments.a6).toBeDefined();

    // The front desk deletes the visit; the next session sends from an incremental preview that never held it.
    rows.appointments = rows.appointments!.filter((row) => row.id !== "a6");
    const next = await runManualTestSync(db, location.id, rows, { now: new Date(dayLater.getTime() + 3600_000) });
    expect(next.quiet).toBe(false);
    const held = await upstreamOf(db, location.upstreamLocationId);
    expect(held.appointments.a6).toBeUndefined();
    expect(held).toEqual(expectedUpstream(emptyUpstream(), rows, sampleMappingAt(dayLater)));
  });

  it("is not quiet after any change to the source, nor after a session that did not succeed", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    await syncAndWatch(location.id, location.upstreamLocationId, rows);

    rows.customers = rows.customers!.map((row) => (row.id === "cu3" ? { ...row, first_name: "Carla" } : row));
    const changed = await syncAndWatch(location.id, location.upstreamLocationId, rows);
    expect(changed.session.quiet).toBe(false);
    expect(changed.session.previewRunId).not.toBeNull();
    expect(await changed.items("contact_details")).toEqual([[expect.stringMatching(/^changed /), 1]]);

    // Built on the session that sent from the preview: quiet again.
    expect((await syncAndWatch(location.id, location.upstreamLocationId, rows)).session.quiet).toBe(true);

    // A quiet session that fails (the upstream refuses the services): the next one cannot build on it.
    await injectFault(db, { target: "batch_sync_services", mode: { kind: "status", status: 502 }, count: 1000 });
    const failed = await syncAndWatch(location.id, location.upstreamLocationId, rows, {
      expect: "failed",
      client: { maxAttempts: 1 },
      config: { stepAttempts: 1 },
    });
    expect(failed.session).toMatchObject({ status: "failed", quiet: true });
    await clearFaults(db);
    const afterFailure = await syncAndWatch(location.id, location.upstreamLocationId, rows);
    expect(afterFailure.session).toMatchObject({ quiet: false, streamed: false });
    // The failed session left the upstream session open: this one goes on in it.
    expect(afterFailure.sent).toEqual([...catalogue, close]);

    // Nor after one cancelled before it started.
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    await cancelSession({ db, actor: systemActor }, { sessionId: requested.sessionId! });
    expect((await syncAndWatch(location.id, location.upstreamLocationId, rows)).session.quiet).toBe(false);

    const held = await upstreamOf(db, location.upstreamLocationId);
    expect(held).toEqual(expectedUpstream(emptyUpstream(), rows, sampleMappingAt(sampleNow)));
    expect(held.contact_details.cu3).toMatchObject({ first_name: "Carla" });
  });
});

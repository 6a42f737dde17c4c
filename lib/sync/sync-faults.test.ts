import { and, asc, eq, gt, isNotNull, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { locations, previewRuns, sandboxLocations, syncAttempts, syncSessions, syncStepItems, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemContext } from "@/lib/operations/context";
import { computePreview } from "@/lib/preview/compute-preview";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment, sourceCustomer } from "@/lib/source/testing/source-row-factories";
import { closeUpstreamSession } from "./close-upstream-session";
import { requestSyncSession } from "./request-session";
import { runSession, type RunSessionOptions } from "./run-session";
import { resumeSession } from "./session-actions";
import { compareType, openingsInAnyOrder } from "./testing/sync-assertions";
import { sampleNow, sampleSourceRows } from "./testing/sample-source";
import {
  computeQueuedPreview,
  createConnectedLocation,
  noWaits,
  runManualTestSync,
  runTestSync,
  sandboxRequests,
  useSyncSandbox,
} from "./testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
afterEach(() => clearFaults(db));

const options = (overrides: Partial<RunSessionOptions> = {}): RunSessionOptions => ({
  reader: createArraySourceReader(sampleSourceRows()),
  now: sampleNow,
  client: noWaits,
  config: { stepBackoffMs: 0 },
  ...overrides,
});

async function sessionOf(id: string) {
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, id));
  const steps = await db.select().from(syncSteps).where(eq(syncSteps.sessionId, id)).orderBy(asc(syncSteps.position));
  const attempts = await db.select().from(syncAttempts).where(eq(syncAttempts.sessionId, id)).orderBy(asc(syncAttempts.id));
  return { session: session!, steps, attempts };
}

async function expectSandboxMatches(location: { id: string; upstreamLocationId: string }, rows: SourceRows = sampleSourceRows()) {
  for (const type of ["calendars", "services", "contact_details", "appointments", "openings"] as const) {
    const compared = await compareType(db, { locationId: location.id, upstreamLocationId: location.upstreamLocationId, type, rows });
    expect(compared.stored, type).toEqual(compared.expected);
  }
}

async function sandboxInProgress(upstreamLocationId: string) {
  const [row] = await db.select().from(sandboxLocations).where(eq(sandboxLocations.id, upstreamLocationId));
  return row!.syncInProgress;
}

describe("faults", () => {
  it("completes through 5xx, 429 with Retry-After and a reset upload, with every attempt in the history", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await injectFault(db, { target: "batch_sync_calendars", mode: { kind: "status", status: 503 }, count: 1 });
    await injectFault(db, { target: "contact_details", mode: { kind: "rate-limit", retryAfterSeconds: 7 }, count: 1 });
    await injectFault(db, { target: "upload", mode: { kind: "reset" }, count: 1 });
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(await runSession(systemContext(testDb.db), { sessionId: requested.sessionId!, ...options() })).toBe("succeeded");

    const { attempts } = await sessionOf(requested.sessionId!);
    const failed = attempts.filter((attempt) => attempt.retryDelayMs !== null);
    expect(failed.map((attempt) => [attempt.operation, attempt.status])).toEqual([
      ["syncCalendars", 503],
      ["importContactDetails", 429],
      ["importContactDetails", null],
    ]);
    expect(failed[1]!.retryDelayMs).toBe(7000);
    expect(failed[2]!.error).toBeTruthy();
    // The sandbox logged every other exchange of the history (a reset upload is logged without its location).
    expect(attempts.filter((attempt) => attempt.status !== null).map((attempt) => `${attempt.method} ${attempt.status}`)).toEqual(
      (await sandboxRequests(db, location.upstreamLocationId))
        .filter((line) => !line.includes("access_tokens"))
        .map((line) => line.replace(/ \S+ /, " ")),
    );
    await expectSandboxMatches(location);
  });

  it("a permanent fault fails the session, leaves the upstream session open and flags the location; resume converges", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await injectFault(db, { target: "batch_sync_openings", mode: { kind: "status", status: 502 }, count: 1000 });
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    const result = await runSession(systemContext(testDb.db), {
      sessionId: requested.sessionId!,
      ...options({ client: { ...noWaits, maxAttempts: 2 }, config: { stepBackoffMs: 0, stepAttempts: 2 } }),
    });
    expect(result).toBe("failed");

    const failed = await sessionOf(requested.sessionId!);
    expect(failed.session).toMatchObject({ status: "failed", upstreamOpen: true, currentStep: "openings" });
    expect(failed.steps.find((step) => step.name === "openings")).toMatchObject({ status: "failed", attempts: 2 });
    expect(failed.steps.find((step) => step.name === "close")).toMatchObject({ status: "pending" });
    // Both services' imports go at once (SYNC_OPENINGS_CONCURRENCY): each tries twice, in each of the two step attempts.
    expect(failed.attempts.filter((attempt) => attempt.operation === "importOpenings").map((attempt) => attempt.status)).toEqual(Array(8).fill(502));
    expect(await sandboxInProgress(location.upstreamLocationId)).toBe(true);
    const [flagged] = await db.select().from(locations).where(eq(locations.id, location.id));
    expect(flagged!.attentionReason).toMatch(/^The last sync failed at openings: .*502.*\. Resume it or close the upstream session\.$/);

    await clearFaults(db);
    // Someone opens the preview meanwhile; the resume of a first sync streams from the source again, without it.
    const [newer] = await db.insert(previewRuns).values({ locationId: location.id }).returning();
    await computePreview(systemContext(testDb.db), { runId: newer!.id, reader: createArraySourceReader(sampleSourceRows()), now: sampleNow });
    const before = (await sandboxRequests(db, location.upstreamLocationId)).length;
    const resumed = await resumeSession({ db, actor: systemActor }, { sessionId: requested.sessionId! });
    expect(resumed.started).toBe(true);
    expect(await runSession(systemContext(testDb.db), { sessionId: resumed.sessionId!, ...options() })).toBe("succeeded");
    const after = await sessionOf(resumed.sessionId!);
    expect(after.session).toMatchObject({
      trigger: "resume",
      resumesSessionId: requested.sessionId,
      upstreamOpen: false,
      streamed: true,
      previewRunId: null,
    });
    expect(after.steps.map((step) => `${step.name}:${step.status}`)).toEqual([
      "open:skipped",
      // What the later steps name runs again: the catalogue is sent whole, and contacts only new or changed (none).
      "calendars:succeeded",
      "service_categories:succeeded",
      "services:succeeded",
      "contact_details:succeeded",
      "vehicles:skipped",
      "appointments:skipped",
      "openings:succeeded",
      "close:succeeded",
    ]);
    expect(openingsInAnyOrder((await sandboxRequests(db, location.upstreamLocationId)).slice(before))).toEqual(
      openingsInAnyOrder([
        "POST batch_sync_calendars 200",
        "POST batch_sync_service_categories 200",
        "POST batch_sync_services 200",
        "POST batch_sync_openings 200",
        "PUT upload 200",
        "POST batch_sync_openings 200",
        "PUT upload 200",
        "PUT update_management_system 200",
      ]),
    );
    expect(await sandboxInProgress(location.upstreamLocationId)).toBe(false);
    const [cleared] = await db.select().from(locations).where(eq(locations.id, location.id));
    expect(cleared!.attentionReason).toBeNull();
    await expectSandboxMatches(location);
  });

  it("a resumed session does not send again the items the upstream already accepted", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    // Seed 8 at probability 0.5: the first openings request to arrive passes, the second fails (and has no retry here).
    // The two services' imports go at once, so either may be the one that fails.
    await injectFault(db, { target: "batch_sync_openings", mode: { kind: "status", status: 503 }, probability: 0.5, seed: 8, count: 1 });
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(
      await runSession(systemContext(testDb.db), {
        sessionId: requested.sessionId!,
        ...options({ client: { ...noWaits, maxAttempts: 1 }, config: { stepBackoffMs: 0, stepAttempts: 1 } }),
      }),
    ).toBe("failed");
    const failedItems = await db
      .select({ key: syncStepItems.key, status: syncStepItems.status })
      .from(syncStepItems)
      .innerJoin(syncSteps, eq(syncSteps.id, syncStepItems.stepId))
      .where(and(eq(syncSteps.sessionId, requested.sessionId!), eq(syncSteps.name, "openings")))
      .orderBy(asc(syncStepItems.position));
    expect(failedItems.map((item) => item.key)).toEqual(["service sv1", "service sv2"]);
    expect(failedItems.map((item) => item.status).sort()).toEqual(["failed", "succeeded"]);
    const failedKey = failedItems.find((item) => item.status === "failed")!.key;

    const before = (await sandboxRequests(db, location.upstreamLocationId)).length;
    const resumed = await resumeSession({ db, actor: systemActor }, { sessionId: requested.sessionId! });
    expect(await runSession(systemContext(testDb.db), { sessionId: resumed.sessionId!, ...options() })).toBe("succeeded");
    expect((await sandboxRequests(db, location.upstreamLocationId)).slice(before)).toEqual([
      "POST batch_sync_calendars 200",
      "POST batch_sync_service_categories 200",
      "POST batch_sync_services 200",
      "POST batch_sync_openings 200",
      "PUT upload 200",
      "PUT update_management_system 200",
    ]);
    const resent = await db
      .select({ key: syncStepItems.key })
      .from(syncStepItems)
      .innerJoin(syncSteps, eq(syncSteps.id, syncStepItems.stepId))
      .where(and(eq(syncSteps.sessionId, resumed.sessionId!), eq(syncSteps.name, "openings"), gt(syncStepItems.attempts, 0)));
    expect(resent).toEqual([{ key: failedKey }]);
    await expectSandboxMatches(location);
  });

  it("a resume after a new customer booked in a pending range sends the customer before the visit that names them", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    await runManualTestSync(db, location.id, rows);
    // A change in March, whose import fails for good: the session fails at appointments, its contacts step done.
    rows.appointments = rows.appointments!.map((row) => (row.id === "a3" ? { ...row, price: "30.00" } : row));
    await injectFault(db, { target: "batch_sync_appointments", mode: { kind: "status", status: 502 }, count: 1000 });
    const failed = await runManualTestSync(db, location.id, rows, { expect: "failed", client: { maxAttempts: 1 }, config: { stepAttempts: 1 } });
    expect(failed.currentStep).toBe("appointments");
    await clearFaults(db);

    // Meanwhile a new customer books a visit on a day of the pending import.
    rows.customers!.push(sourceCustomer("cu5", { last_name: "Neu" }));
    rows.appointments!.push(sourceAppointment("a8", "2026-03-12", { customer_id: "cu5", service_id: "sv1" }));
    const before = (await sandboxRequests(db, location.upstreamLocationId)).length;
    const resumed = await resumeSession({ db, actor: systemActor }, { sessionId: failed.id });
    await runTestSync(db, resumed.sessionId!, rows);
    const sent = (await sandboxRequests(db, location.upstreamLocationId)).slice(before);
    // The new customer is sent before the import that names them, and nothing is refused.
    expect(sent.indexOf("POST contact_details 200")).toBeGreaterThan(-1);
    expect(sent.indexOf("POST contact_details 200")).toBeLessThan(sent.indexOf("POST batch_sync_appointments 200"));
    expect(sent.filter((line) => !/ 2\d\d$/.test(line))).toEqual([]);
    await expectSandboxMatches(location, rows);
  });

  it("a step sent from the preview that fails for good still says what it left out", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    rows.appointments!.push(sourceAppointment("a-ghost", "2026-03-20", { customer_id: "ghost", status: "completed" }));
    const run = (reader: SourceRows = rows) =>
      requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null }).then(async (requested) => {
        await runSession(systemContext(testDb.db), {
          sessionId: requested.sessionId!,
          ...options({
            reader: createArraySourceReader(reader),
            client: { ...noWaits, maxAttempts: 1 },
            config: { stepBackoffMs: 0, stepAttempts: 1 },
          }),
        });
        await computeQueuedPreview(testDb.db, location.id, createArraySourceReader(reader), sampleNow);
        return sessionOf(requested.sessionId!);
      });
    // A first sync streams from the source and counts what it leaves out as it reads.
    const first = await run();
    const firstAppointments = first.steps.find((step) => step.name === "appointments")!;
    expect(firstAppointments).toMatchObject({ status: "succeeded", recordsInvalid: 1 });

    const changed = structuredClone(rows);
    changed.appointments!.find((row) => row.id === "a1")!.price = "99.00";
    await injectFault(db, { target: "batch_sync_appointments", mode: { kind: "status", status: 502 }, count: 1000 });
    const failed = await run(changed);
    expect(failed.session).toMatchObject({ status: "failed", streamed: false, currentStep: "appointments" });
    expect(failed.steps.find((step) => step.name === "appointments")).toMatchObject({
      status: "failed",
      recordsInvalid: 1,
      recordsExcluded: firstAppointments.recordsExcluded,
    });
  });

  it("closes an upstream session left open, explicitly, and records the exchange", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await injectFault(db, { target: "batch_sync_services", mode: { kind: "status", status: 500 }, count: 1000 });
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(
      await runSession(systemContext(testDb.db), {
        sessionId: requested.sessionId!,
        ...options({ client: { ...noWaits, maxAttempts: 1 }, config: { stepBackoffMs: 0, stepAttempts: 1 } }),
      }),
    ).toBe("failed");
    await clearFaults(db);
    expect(await sandboxInProgress(location.upstreamLocationId)).toBe(true);
    await closeUpstreamSession({ db, actor: systemActor, upstreamClient: noWaits }, { sessionId: requested.sessionId! });
    expect(await sandboxInProgress(location.upstreamLocationId)).toBe(false);
    const closed = await sessionOf(requested.sessionId!);
    expect(closed.session).toMatchObject({ status: "failed", upstreamOpen: false });
    expect(closed.steps.find((step) => step.name === "close")).toMatchObject({ status: "succeeded" });
    expect(closed.attempts.at(-1)).toMatchObject({ operation: "updateManagementSystem", status: 200 });
    await expect(closeUpstreamSession({ db, actor: systemActor, upstreamClient: noWaits }, { sessionId: requested.sessionId! })).rejects.toThrow(
      /did not leave/,
    );
  });
});

describe("lease and fencing", () => {
  it("a worker whose lease expired is taken over; its later writes are refused by the fencing token", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    const { claimSession, LeaseLostError } = await import("./session-fence");
    const stale = (await claimSession(testDb.db, requested.sessionId!, { owner: "worker-a", leaseSeconds: 60 }))!;
    await expect(runSession(systemContext(testDb.db), { sessionId: requested.sessionId!, ...options({ owner: "worker-b" }) })).rejects.toThrow(
      /held by another worker/,
    );

    // Worker A hangs past its lease: worker B takes the session over and completes it.
    await db
      .update(syncSessions)
      .set({ leaseExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(syncSessions.id, requested.sessionId!));
    expect(await runSession(systemContext(testDb.db), { sessionId: requested.sessionId!, ...options({ owner: "worker-b" }) })).toBe("succeeded");
    const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
    expect(session).toMatchObject({ status: "succeeded", leaseOwner: "worker-b", fencingToken: stale.token + 1 });

    // Worker A wakes up: nothing it writes lands, and its upstream client is cancelled.
    await expect(
      stale.write((tx) => tx.execute(sql`update sync_sessions set status = 'failed' where id = ${requested.sessionId!}`)),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(stale.signal.aborted).toBe(true);
    await expect(stale.checkpoint()).rejects.toBeInstanceOf(LeaseLostError);
    const [unchanged] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
    expect(unchanged!.status).toBe("succeeded");
    const written = await db
      .select()
      .from(syncAttempts)
      .where(and(eq(syncAttempts.sessionId, requested.sessionId!), isNotNull(syncAttempts.stepId)));
    expect(written.length).toBeGreaterThan(0);
  });
});

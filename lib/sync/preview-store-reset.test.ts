import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { previewRuns, syncSessions } from "@/db/schema";
import { computePreview } from "@/lib/preview/compute-preview";
import { useTestDatabase } from "@/db/testing/test-database";
import { getPreviewRuns } from "@/lib/preview/read-preview";
import { openPreviewStore, previewStoreEpoch, previewStoreLostMessage } from "@/lib/preview/preview-store";
import { clearFaults, injectFault, listFaults } from "@/lib/sandbox/faults";
import type { SourceRows } from "@/lib/source/testing/array-source-reader";
import { sampleSourceRows } from "./testing/sample-source";
import { compareType } from "./testing/sync-assertions";
import {
  computeQueuedPreview,
  createConnectedLocation,
  noWaits,
  runManualTestSync,
  sandboxRequests,
  useSyncSandbox,
} from "./testing/sync-test-setup";
import { systemContext } from "@/lib/operations/context";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { requestSyncSession } from "./request-session";
import { runSession, type RunSessionResult } from "./run-session";
import { sampleNow } from "./testing/sample-source";
import { requestPreview } from "@/lib/preview/request-preview";

// The preview's tables are UNLOGGED (lib/preview/preview-store.ts): a crash of PostgreSQL empties them, and nothing
// else. `crashEmptiesPreviewTables` leaves the database as crash recovery does (the real crash is in
// lib/preview/preview-store-crash.test.ts): the preview's four tables empty, every logged table as it was.

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);

async function crashEmptiesPreviewTables(): Promise<void> {
  await db.execute(sql`truncate preview_records, preview_issues, preview_record_counts, preview_store`);
}

/** Until the sandbox holds the request the fault delays (the fault is taken as the request arrives). */
async function heldRequest(): Promise<void> {
  for (let waited = 0; (await listFaults(db)).length > 0; waited += 20) {
    if (waited > 20_000) throw new Error("the delayed request never reached the sandbox");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A customer renamed and an appointment moved three days: the next sync sends a contact and the days between. */
function changed(rows: SourceRows): SourceRows {
  const next = structuredClone(rows);
  next.customers = next.customers!.map((row) => (row.id === "cu2" ? { ...row, first_name: "Berta" } : row));
  next.appointments = next.appointments!.map((row) =>
    row.id === "a3" ? { ...row, starts_at: "2026-03-15 09:00:00", ends_at: "2026-03-15 09:30:00" } : row,
  );
  return next;
}

async function expectUpstreamHolds(location: { id: string; upstreamLocationId: string }, rows: SourceRows) {
  for (const type of ["contact_details", "appointments", "services", "calendars"] as const) {
    const compared = await compareType(db, { locationId: location.id, upstreamLocationId: location.upstreamLocationId, type, rows });
    expect(Object.keys(compared.expected).length, type).toBeGreaterThan(0);
    expect(compared.stored, type).toEqual(compared.expected);
  }
}

/**
 * A location synced once, its source then changed (`changed`), and the sandbox armed to hold the next session's
 * services request: the crash comes after the session planned every step from its preview, and before it sent the
 * contacts and appointments it planned.
 */
async function syncedWithServicesHeld() {
  const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
  const first = sampleSourceRows();
  await runManualTestSync(db, location.id, first);
  await injectFault(db, { target: "batch_sync_services", mode: { kind: "delay", ms: 1_500 }, count: 1 });
  const requestsBefore = (await sandboxRequests(db, location.upstreamLocationId)).length;
  /** Nothing was sent after the services request, and nothing was replaced with the emptied tables. */
  const expectNothingSentAfterServices = async () => {
    expect((await sandboxRequests(db, location.upstreamLocationId)).slice(requestsBefore)).toEqual([
      "PUT update_management_system 200",
      "POST batch_sync_calendars 200",
      "POST batch_sync_service_categories 200",
      "POST batch_sync_services 200",
    ]);
    await expectUpstreamHolds(location, first);
  };
  return { location, first, second: changed(first), expectNothingSentAfterServices };
}

describe("a crash that empties the preview's tables", () => {
  it("while a session sends from them: the session stops before sending anything of them, and the next one converges", async () => {
    const { location, second, expectNothingSentAfterServices } = await syncedWithServicesHeld();
    const syncing = runManualTestSync(db, location.id, second, { expect: "failed" });
    await heldRequest();
    await crashEmptiesPreviewTables();
    const failed = await syncing;

    expect(failed.error).toContain(previewStoreLostMessage);
    // Every appointment and every customer's subscription is as before.
    await expectNothingSentAfterServices();

    // The next session computes the preview again from the source (the one it would have built on is retired) and sends
    // the change: the renamed customer, the moved appointment's two days, no unsubscribe.
    const resumed = await runManualTestSync(db, location.id, second);
    await expectUpstreamHolds(location, second);
    const [sent] = await db.execute<{ contacts: number }>(
      sql`select coalesce(sum(i.records_sent), 0)::int as contacts from sync_step_items i join sync_steps s on s.id = i.step_id
          where s.session_id = ${resumed.id} and s.name = 'contact_details'`,
    );
    expect(sent!.contacts).toBe(1);
    const [run] = await db.select().from(previewRuns).where(eq(previewRuns.id, resumed.previewRunId!));
    expect(run).toMatchObject({ status: "succeeded", mode: "full", storeEpoch: await previewStoreEpoch(db) });
  });

  it("while the contacts' import waits for its upload address: the upload reads nothing of them, and the session fails with the reason", async () => {
    const { location, first, second } = await syncedWithServicesHeld();
    await clearFaults(db);
    await injectFault(db, { target: "contact_details", mode: { kind: "delay", ms: 1_500 }, count: 1 });
    const requestsBefore = (await sandboxRequests(db, location.upstreamLocationId)).length;
    const syncing = runManualTestSync(db, location.id, second, { expect: "failed" });
    await heldRequest();
    await crashEmptiesPreviewTables();
    const failed = await syncing;

    expect(failed.error).toContain(previewStoreLostMessage);
    const requests = (await sandboxRequests(db, location.upstreamLocationId)).slice(requestsBefore);
    expect(requests.slice(0, 5)).toEqual([
      "PUT update_management_system 200",
      "POST batch_sync_calendars 200",
      "POST batch_sync_service_categories 200",
      "POST batch_sync_services 200",
      "POST contact_details 200",
    ]);
    expect(requests.filter((request) => request.startsWith("PUT upload 2"))).toEqual([]);
    await expectUpstreamHolds(location, first);
  });

  it("while its worker waits: the worker that takes the session over fails it with the reason instead of sending its old plan from a new preview", async () => {
    const { location, second, expectNothingSentAfterServices } = await syncedWithServicesHeld();
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    const sessionId = requested.sessionId!;
    const reader = () => createArraySourceReader(structuredClone(second));
    const stalled = runSession(systemContext(db), { sessionId, reader: reader(), now: sampleNow, client: noWaits, owner: "stalled" });
    await heldRequest();
    await crashEmptiesPreviewTables();
    // Its lease runs out while the sandbox holds its request: another worker takes the session over.
    let takeover: RunSessionResult | undefined;
    for (let tries = 0; takeover === undefined; tries++) {
      await db.execute(sql`update sync_sessions set lease_expires_at = now() - interval '1 second' where id = ${sessionId}`);
      takeover = await runSession(systemContext(db), { sessionId, reader: reader(), now: sampleNow, client: noWaits, owner: "survivor" }).catch(
        (error: unknown) => {
          // The stalled worker renewed its lease in between: expire it again.
          if (tries > 20 || !/held by another worker/.test(String(error))) throw error;
          return undefined;
        },
      );
    }
    expect(takeover).toBe("failed");
    expect(await stalled).toBe("lost");

    const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
    expect(session).toMatchObject({ status: "failed", error: expect.stringContaining(previewStoreLostMessage) });
    await expectNothingSentAfterServices();
    await runManualTestSync(db, location.id, second);
    await expectUpstreamHolds(location, second);
  });

  it("while a first preview run is between its reads: that run removes nothing of the run that follows it", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    // A first run (written in a transaction per record type) whose appointments' read waits for the test.
    let reached!: () => void;
    const reading = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const waiting = createArraySourceReader(structuredClone(rows));
    const read = waiting.read.bind(waiting);
    waiting.read = ((resource, params, options) => {
      if (resource !== "appointments") return read(resource, params, options);
      return (async function* () {
        reached();
        await released;
        throw new Error("the connection was ended by the crash");
      })();
    }) as typeof waiting.read;
    const [stalled] = await db.insert(previewRuns).values({ locationId: location.id }).returning();
    const stalledRun = computePreview(systemContext(db), { runId: stalled!.id, reader: waiting, now: sampleNow });
    await reading;
    // The crash empties the preview's tables (deleted here: the run's open transaction would hold back a truncate)
    // and ends that transaction (the run's read fails when it is released).
    await db.execute(sql`delete from preview_records`);
    await db.execute(sql`delete from preview_issues`);
    await db.execute(sql`delete from preview_record_counts`);
    await db.execute(sql`delete from preview_store`);
    // The location's next run, once the store is opened again (which retires the stalled run and frees its place).
    await openPreviewStore(db);
    const [next] = await db.insert(previewRuns).values({ locationId: location.id }).returning();
    await computePreview(systemContext(db), { runId: next!.id, reader: createArraySourceReader(structuredClone(rows)), now: sampleNow });
    const records = () =>
      db.execute(sql`select record_type, count(*)::int as rows from preview_records where location_id = ${location.id} group by 1 order by 1`);
    const written = await records();
    expect(written.map((row) => row.record_type)).toContain("appointments");

    release();
    await stalledRun;
    expect(await records()).toEqual(written);
    const runs = await db.select().from(previewRuns).where(eq(previewRuns.locationId, location.id));
    // The next run's success removed the stalled one from the history.
    expect(runs.map((run) => [run.id, run.status])).toEqual([[next!.id, "succeeded"]]);
    expect((await getPreviewRuns(db, location.id)).shown?.id).toBe(next!.id);
  });

  it("between sessions: the page shows no preview, the next run retires those it emptied and drops the ledger, and the sync after converges", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const first = sampleSourceRows();
    await runManualTestSync(db, location.id, first);
    const shown = (await getPreviewRuns(db, location.id)).shown;
    const epoch = await previewStoreEpoch(db);
    expect(shown?.storeEpoch).toBe(epoch);
    const ledgers = () => db.execute(sql`select 1 from unsynced_key_ledgers where location_id = ${location.id}`);
    expect(await ledgers()).toHaveLength(1);

    await crashEmptiesPreviewTables();
    expect(await getPreviewRuns(db, location.id)).toMatchObject({ shown: null, lastFailed: null });
    expect(await previewStoreEpoch(db)).toBeNull();

    // What the first preview run or session after the crash does before anything else.
    const next = await openPreviewStore(db);
    expect(next).not.toBe(epoch);
    expect(await previewStoreEpoch(db)).toBe(next);
    const [retired] = await db.select().from(previewRuns).where(eq(previewRuns.id, shown!.id));
    expect(retired).toMatchObject({ status: "failed", error: previewStoreLostMessage });
    expect(await ledgers()).toHaveLength(0);
    // Retired by the crash, not failed: the page starts a new run rather than showing the failure.
    expect(await getPreviewRuns(db, location.id)).toMatchObject({ shown: null, lastFailed: null });

    const second = changed(first);
    const session = await runManualTestSync(db, location.id, second);
    await expectUpstreamHolds(location, second);
    const [row] = await db.select().from(syncSessions).where(eq(syncSessions.id, session.id));
    expect((await getPreviewRuns(db, location.id)).shown?.id).toBe(row!.previewRunId);
  });

  it("before a first sync: the run that succeeded before the crash shows nothing, so the sync queues the location's preview again", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    // The preview the owner's page asked for before the location was ever synced.
    const before = await requestPreview(systemContext(db), { locationId: location.id, requestedByEmail: null });
    await computeQueuedPreview(db, location.id, createArraySourceReader(structuredClone(rows)), sampleNow);
    expect((await getPreviewRuns(db, location.id)).shown?.id).toBe(before.id);

    await crashEmptiesPreviewTables();
    expect((await getPreviewRuns(db, location.id)).shown).toBeNull();
    // A first sync is sent straight from the source, and queues the preview the page will show (computed here as the job would).
    const session = await runManualTestSync(db, location.id, rows);
    expect(session.streamed).toBe(true);
    const shown = (await getPreviewRuns(db, location.id)).shown;
    expect(shown).toMatchObject({ status: "succeeded", storeEpoch: await previewStoreEpoch(db) });
    expect(shown!.id).not.toBe(before.id);
    await expectUpstreamHolds(location, rows);
  });
});

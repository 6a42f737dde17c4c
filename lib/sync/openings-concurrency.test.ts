import { and, asc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { sandboxRequestLog, syncAttempts, syncSessions, syncStepItems, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemContext } from "@/lib/operations/context";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { requestSyncSession } from "./request-session";
import { runSession } from "./run-session";
import { cancelSession, resumeSession } from "./session-actions";
import { compareType } from "./testing/sync-assertions";
import { sampleNow, sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, noWaits, runManualTestSync, runTestSync, sandboxRequests, useSyncSandbox } from "./testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
afterEach(() => clearFaults(db));

/** The sample salon with `count` services; service n has n openings, so an upload's record count names its service. */
/** `minute`: the minute every opening starts at; a later sync with another sends every service again (unchanged ones are not). */
function rowsWithServices(count: number, minute = "00"): SourceRows {
  const rows = sampleSourceRows();
  rows.services = Array.from({ length: count }, (_, index) => ({
    id: `sv${index + 1}`,
    name: `Service ${index + 1}`,
    description: null,
    bookable: true,
    price: "25.00",
    category_id: "c1",
    staff_ids: ["s1", "s2"],
    position: index + 1,
  }));
  rows.availability = rows.services.flatMap((service, index) =>
    Array.from({ length: index + 1 }, (_, hour) => ({
      staff_id: "s1",
      service_id: service.id,
      starts_at: `2026-03-11 ${String(8 + hour).padStart(2, "0")}:${minute}:00`,
    })),
  );
  return rows;
}

async function openingsStepOf(sessionId: string) {
  const [step] = await db
    .select()
    .from(syncSteps)
    .where(and(eq(syncSteps.sessionId, sessionId), eq(syncSteps.name, "openings")));
  const items = await db.select().from(syncStepItems).where(eq(syncStepItems.stepId, step!.id)).orderBy(asc(syncStepItems.position));
  const attempts = await db.select().from(syncAttempts).where(eq(syncAttempts.stepId, step!.id)).orderBy(asc(syncAttempts.id));
  return { step: step!, items, attempts };
}

type Attempt = typeof syncAttempts.$inferSelect;

/** Per item, from the start of its first exchange to the end of its last (ms), as the client recorded them. */
function itemSpans(attempts: readonly Attempt[]): { itemId: string; start: number; end: number }[] {
  const spans = new Map<string, { itemId: string; start: number; end: number }>();
  for (const attempt of attempts) {
    const start = attempt.startedAt.getTime();
    const end = start + attempt.durationMs;
    const span = spans.get(attempt.itemId!) ?? { itemId: attempt.itemId!, start, end };
    spans.set(attempt.itemId!, { itemId: span.itemId, start: Math.min(span.start, start), end: Math.max(span.end, end) });
  }
  return [...spans.values()].sort((a, b) => a.start - b.start);
}

/** The most spans open at one moment (a span ending when another starts does not overlap it). */
function maxOverlap(spans: readonly { start: number; end: number }[]): number {
  const events = spans.flatMap((span) => [
    { at: span.start, delta: 1 },
    { at: span.end, delta: -1 },
  ]);
  events.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let open = 0;
  let most = 0;
  for (const event of events) most = Math.max(most, (open += event.delta));
  return most;
}

/** When the sandbox finished each openings POST of a location (it logs a request once it has answered it). */
async function openingsPostsAnswered(upstreamLocationId: string): Promise<number[]> {
  const rows = await db
    .select({ at: sandboxRequestLog.at })
    .from(sandboxRequestLog)
    .where(and(eq(sandboxRequestLog.locationId, upstreamLocationId), eq(sandboxRequestLog.endpoint, "batch_sync_openings")))
    .orderBy(asc(sandboxRequestLog.id));
  return rows.map((row) => row.at.getTime());
}

async function expectOpeningsConverged(location: { id: string; upstreamLocationId: string }, rows: SourceRows) {
  const compared = await compareType(db, { locationId: location.id, upstreamLocationId: location.upstreamLocationId, type: "openings", rows });
  expect(compared.stored).toEqual(compared.expected);
  expect(compared.syncedKeys).toEqual(Object.keys(compared.expected).sort());
}

/** Waits until `count` openings items of the session are being sent. */
async function untilRunning(sessionId: string, count: number): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const [row] = await testDb.sql<{ n: number }[]>`select count(*)::int as n from sync_step_items i join sync_steps s on s.id = i.step_id
      where s.session_id = ${sessionId} and s.name = 'openings' and i.status = 'running'`;
    if (row!.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${count} openings imports in flight`);
}

const held = 300;

describe("openings imports", () => {
  it("go N at a time: the imports overlap, never more than N, each with its own service's records", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = rowsWithServices(6);
    // The sandbox holds every openings POST for 300 ms before it answers.
    await injectFault(db, { target: "batch_sync_openings", mode: { kind: "delay", ms: held }, count: 1000 });

    const sequential = await runManualTestSync(testDb.db, location.id, rows, { config: { openingsConcurrency: 1 } });
    const one = await openingsStepOf(sequential.id);
    expect(maxOverlap(itemSpans(one.attempts))).toBe(1);
    const sequentialPosts = await openingsPostsAnswered(location.upstreamLocationId);
    expect(sequentialPosts).toHaveLength(6);
    // One at a time: each POST arrived after the one before was answered, and was held 300 ms.
    for (let index = 1; index < 6; index++) expect(sequentialPosts[index]! - sequentialPosts[index - 1]!).toBeGreaterThanOrEqual(held);

    const later = rowsWithServices(6, "30");
    const concurrent = await runManualTestSync(testDb.db, location.id, later, { config: { openingsConcurrency: 3 } });
    const three = await openingsStepOf(concurrent.id);
    expect(three.items.map((item) => [item.key, item.status, item.recordsSent])).toEqual(
      rows.services!.map((service, index) => [`service ${service.id}`, "succeeded", index + 1]),
    );
    expect(three.step).toMatchObject({ status: "succeeded", recordsSent: 21 });
    expect(three.attempts.every((attempt) => attempt.itemId !== null)).toBe(true);
    const spans = itemSpans(three.attempts);
    // The second import started before the first one ended; at most three were ever in flight, and three were.
    expect(spans[1]!.start).toBeLessThan(spans[0]!.end);
    expect(maxOverlap(spans)).toBe(3);
    // The sandbox saw it too: two POSTs, each held 300 ms, answered less than 300 ms apart were in its hands at once.
    const concurrentPosts = (await openingsPostsAnswered(location.upstreamLocationId)).slice(6).sort((a, b) => a - b);
    expect(concurrentPosts).toHaveLength(6);
    expect(concurrentPosts[1]! - concurrentPosts[0]!).toBeLessThan(held);
    // Each upload carried its own service's records (service n has n openings).
    for (const [index, item] of three.items.entries()) {
      const uploads = three.attempts.filter((attempt) => attempt.itemId === item.id && attempt.method === "PUT");
      expect(uploads.map((upload) => [upload.status, upload.records])).toEqual([[200, index + 1]]);
    }
    await expectOpeningsConverged(location, later);
  });

  it("record each exchange against the item that made it", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = rowsWithServices(4);
    await runManualTestSync(testDb.db, location.id, rows);
    // Later syncs upload only openings here (nothing else changed): the first of these four uploads fails with a 503,
    // while the other three imports are in flight.
    await injectFault(db, { target: "upload", mode: { kind: "status", status: 503 }, count: 1 });
    await injectFault(db, { target: "batch_sync_openings", mode: { kind: "delay", ms: 200 }, count: 1000 });
    const moved = rowsWithServices(4, "30");
    const session = await runManualTestSync(testDb.db, location.id, moved);
    const { step, items, attempts } = await openingsStepOf(session.id);
    expect(maxOverlap(itemSpans(attempts))).toBe(4);
    expect(attempts.every((attempt) => attempt.itemId !== null)).toBe(true);

    const exchanges = items.map((item) =>
      attempts.filter((attempt) => attempt.itemId === item.id).map((attempt) => `${attempt.attempt} ${attempt.method} ${attempt.status}`),
    );
    const faulted = exchanges.filter((list) => list.some((line) => line.endsWith(" 503")));
    // The 503 is recorded against the one item whose import then made a second attempt, and against no other.
    expect(faulted).toEqual([["1 POST 200", "1 PUT 503", "2 POST 200", "2 PUT 200"]]);
    expect(exchanges.filter((list) => !faulted.includes(list))).toEqual([1, 2, 3].map(() => ["1 POST 200", "1 PUT 200"]));
    // The successful upload recorded against each item carried that item's records (service n has n openings).
    expect(items.map((item) => item.recordsSent)).toEqual([1, 2, 3, 4]);
    for (const item of items) {
      const uploads = attempts.filter((attempt) => attempt.itemId === item.id && attempt.method === "PUT" && attempt.status === 200);
      expect(uploads.map((upload) => upload.records)).toEqual([item.recordsSent]);
    }
    expect(items.map((item) => item.attempts)).toEqual([1, 1, 1, 1]);
    expect(step.recordsSent).toBe(10);
    await expectOpeningsConverged(location, moved);
  });

  it("a failed import fails the step once the others settle; they stay recorded and a resume sends only the failed one", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = rowsWithServices(4);
    // The first openings POST to arrive fails (no retries here); the other three are held and still in flight.
    await injectFault(db, { target: "batch_sync_openings", mode: { kind: "status", status: 503 }, count: 1 });
    await injectFault(db, { target: "batch_sync_openings", mode: { kind: "delay", ms: 500 }, count: 3 });
    const failed = await runManualTestSync(testDb.db, location.id, rows, {
      expect: "failed",
      client: { maxAttempts: 1 },
      config: { stepAttempts: 1, openingsConcurrency: 4 },
    });

    const { step, items } = await openingsStepOf(failed.id);
    const failedItems = items.filter((item) => item.status === "failed");
    expect(failedItems).toHaveLength(1);
    expect(failedItems[0]!.error).toMatch(/503/);
    expect(items.filter((item) => item.status === "succeeded")).toHaveLength(3);
    expect(step).toMatchObject({ status: "failed", error: failedItems[0]!.error });
    expect(failed.error).toBe(failedItems[0]!.error);
    // The three accepted imports are recorded: their services' openings are in synced_records.
    const services = items.filter((item) => item.status === "succeeded").map((item) => item.key.replace(/^service /, ""));
    const synced = await testDb.sql<{ service: string }[]>`select distinct split_part(record_key, '|', 1) as service from synced_records
      where location_id = ${location.id} and record_type = 'openings' order by 1`;
    expect(synced.map((row) => row.service)).toEqual(services.sort());

    const before = (await sandboxRequests(db, location.upstreamLocationId)).length;
    const resumed = await resumeSession({ db, actor: systemActor }, { sessionId: failed.id });
    await runTestSync(testDb.db, resumed.sessionId!, rows);
    // The catalogue again (what openings name), then only the failed service's import.
    expect((await sandboxRequests(db, location.upstreamLocationId)).slice(before)).toEqual([
      "POST batch_sync_calendars 200",
      "POST batch_sync_service_categories 200",
      "POST batch_sync_services 200",
      "POST batch_sync_openings 200",
      "PUT upload 200",
      "PUT update_management_system 200",
    ]);
    const after = await openingsStepOf(resumed.sessionId!);
    expect(after.items.filter((item) => item.attempts > 0).map((item) => item.key)).toEqual([failedItems[0]!.key]);
    expect(after.step.recordsSent).toBe(10);
    await expectOpeningsConverged(location, rows);
  });

  it("start no further import after one fails", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await injectFault(db, { target: "batch_sync_openings", mode: { kind: "status", status: 503 }, count: 1 });
    await injectFault(db, { target: "batch_sync_openings", mode: { kind: "delay", ms: 500 }, count: 3 });
    const failed = await runManualTestSync(testDb.db, location.id, rowsWithServices(5), {
      expect: "failed",
      client: { maxAttempts: 1 },
      config: { stepAttempts: 1, openingsConcurrency: 4 },
    });
    const { items } = await openingsStepOf(failed.id);
    expect(items.map((item) => item.status).sort()).toEqual(["failed", "pending", "succeeded", "succeeded", "succeeded"]);
    expect(items.find((item) => item.status === "pending")).toMatchObject({ key: "service sv5", attempts: 0 });
  });

  it("stop between imports when the session is cancelled: those in flight finish and are recorded, no other starts", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await injectFault(db, { target: "batch_sync_openings", mode: { kind: "delay", ms: 1000 }, count: 2 });
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    const running = runSession(systemContext(testDb.db), {
      sessionId: requested.sessionId!,
      reader: createArraySourceReader(rowsWithServices(6)),
      now: sampleNow,
      client: noWaits,
      config: { openingsConcurrency: 2 },
    });
    await untilRunning(requested.sessionId!, 2);
    await cancelSession({ db, actor: systemActor }, { sessionId: requested.sessionId! });
    expect(await running).toBe("cancelled");
    const { items } = await openingsStepOf(requested.sessionId!);
    expect(items.map((item) => item.status)).toEqual(["succeeded", "succeeded", "pending", "pending", "pending", "pending"]);
    const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
    expect(session).toMatchObject({ status: "cancelled", upstreamOpen: true });
  });

  it("stop at once when another worker takes the session over: the imports in flight are cancelled, nothing more is written", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = rowsWithServices(6);
    await injectFault(db, { target: "batch_sync_openings", mode: { kind: "delay", ms: 5000 }, count: 1000 });
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    const running = runSession(systemContext(testDb.db), {
      sessionId: requested.sessionId!,
      reader: createArraySourceReader(structuredClone(rows)),
      now: sampleNow,
      client: noWaits,
      // Renewed every 333 ms: the lost claim is noticed within that.
      config: { openingsConcurrency: 3, leaseSeconds: 1 },
    });
    await untilRunning(requested.sessionId!, 3);
    // What a claim by another worker does (its lease expired): the fencing token goes up.
    await testDb.sql`update sync_sessions set fencing_token = fencing_token + 1, lease_owner = 'worker-b' where id = ${requested.sessionId!}`;
    const claimedAt = Date.now();
    expect(await running).toBe("lost");
    // Well before the held POSTs (5 s) would have been answered.
    expect(Date.now() - claimedAt).toBeLessThan(3000);
    const { items, attempts } = await openingsStepOf(requested.sessionId!);
    expect(items.map((item) => item.status)).toEqual(["running", "running", "running", "pending", "pending", "pending"]);
    expect(attempts).toEqual([]);
    const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
    expect(session).toMatchObject({ status: "running", leaseOwner: "worker-b" });
  });
});

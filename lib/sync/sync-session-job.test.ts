import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { startJobEngine, type JobEngine } from "@/lib/jobs/job-engine";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { systemContext } from "@/lib/operations/context";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { requestSyncSession } from "./request-session";
import { syncSessionJob } from "./sync-session-job";
import { createConnectedLocation, startSyncSandbox, type SyncSandbox } from "./testing/sync-test-setup";

// The web process requests, a pg-boss worker runs the session: both on this test's database.
const testDb = await useTestDatabase();
let setup: SyncSandbox;
let engine: JobEngine;
beforeAll(async () => {
  setup = await startSyncSandbox(testDb.db);
  engine = await startJobEngine({ databaseUrl: testDb.url, work: true, jobs: [syncSessionJob] as never, log: () => {} });
});
afterAll(async () => {
  await engine.stop();
  await stopJobSender();
  await setup.close();
});

async function waitUntilFinished(sessionIds: readonly string[]) {
  for (let attempt = 0; attempt < 900; attempt++) {
    const rows = await testDb.db
      .select()
      .from(syncSessions)
      .where(inArray(syncSessions.id, [...sessionIds]));
    if (rows.every((row) => row.status !== "queued" && row.status !== "running")) return rows;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the sessions did not finish");
}

describe("sync.session job", () => {
  it("runs sessions of several locations at once in one worker process (SYNC_WORKER_CONCURRENCY)", async () => {
    const sourceKeys = await generateDemoSource(testDb.db, {
      locations: 3,
      contacts: 10,
      years: 1,
      seed: 10,
      sourceKeys: ["job-a", "job-b", "job-c"],
    });
    // Every upload waits a little: each session is mostly waiting on the network, as real ones are.
    await injectFault(testDb.db, { target: "upload", mode: { kind: "delay", ms: 150 }, count: 10_000 });
    try {
      const requested = [];
      for (const sourceKey of sourceKeys) {
        const location = await createConnectedLocation(testDb.db, setup, { sourceKey });
        requested.push(await requestSyncSession(systemContext(testDb.db), { locationId: location.id, trigger: "manual", requestedByEmail: null }));
      }
      const sessions = await waitUntilFinished(requested.map((request) => request.sessionId!));
      expect(sessions.map((session) => session.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
      // At once: every session started before any of them finished.
      const lastStart = Math.max(...sessions.map((session) => session.startedAt!.getTime()));
      const firstEnd = Math.min(...sessions.map((session) => session.finishedAt!.getTime()));
      expect(lastStart).toBeLessThan(firstEnd);
    } finally {
      await clearFaults(testDb.db);
    }
  }, 120_000);

  it("runs a requested session in a pg-boss worker", async () => {
    const [sourceKey] = await generateDemoSource(testDb.db, { locations: 1, contacts: 10, years: 1, seed: 9, sourceKeys: ["job"] });
    const location = await createConnectedLocation(testDb.db, setup, { sourceKey });
    const requested = await requestSyncSession(systemContext(testDb.db), {
      locationId: location.id,
      trigger: "manual",
      requestedByEmail: "support@example.test",
    });
    let status = "queued";
    for (let attempt = 0; attempt < 600 && (status === "queued" || status === "running"); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      [{ status } = { status }] = await testDb.db
        .select({ status: syncSessions.status })
        .from(syncSessions)
        .where(eq(syncSessions.id, requested.sessionId!));
    }
    expect(status).toBe("succeeded");
  }, 90_000);
});

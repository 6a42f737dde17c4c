import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { startJobEngine, type JobEngine } from "@/lib/jobs/job-engine";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { systemContext } from "@/lib/operations/context";
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

describe("sync.session job", () => {
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

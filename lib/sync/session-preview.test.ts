import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { previewRuns, syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { systemContext } from "@/lib/operations/context";
import { computePreview } from "@/lib/preview/compute-preview";
import { leaseFromNow } from "@/lib/preview/preview-run-lease";
import { getPreviewRuns } from "@/lib/preview/read-preview";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { createSqlSourceReader } from "@/lib/source/sql-source-reader";
import { requestSyncSession } from "./request-session";
import { runSession } from "./run-session";
import { sampleNow as now, sampleSourceRows } from "./testing/sample-source";
import { computeQueuedPreview, createConnectedLocation, noWaits, runManualTestSync, useSyncSandbox } from "./testing/sync-test-setup";

// A session sending from the preview computes its own run first, after the location's run in flight: one whose process
// died (its lease expired) is failed at once, one alive is waited for however slow it is.

const testDb = await useTestDatabase();
process.env.DATABASE_URL = testDb.url;
const { db } = testDb;
const setup = await useSyncSandbox(db);
const sqlReader = createSqlSourceReader({ url: testDb.url });
afterAll(async () => {
  await sqlReader.close();
  await stopJobSender();
});

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; !(await condition()); tries++) {
    if (tries > 600) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A full resync ("Sync now" with a full resync): it always sends from a preview run of its own. */
async function runFullResync(locationId: string, reader: Parameters<typeof runSession>[1]["reader"], leaseSeconds?: number) {
  const requested = await requestSyncSession(systemContext(db), { locationId, trigger: "manual", requestedByEmail: null, full: true });
  const sessionId = requested.sessionId!;
  const result = runSession(systemContext(db), {
    sessionId,
    reader,
    now,
    client: noWaits,
    config: { stepBackoffMs: 0, ...(leaseSeconds ? { leaseSeconds } : {}) },
  });
  return { sessionId, result };
}

describe("a session after a preview run whose process died", () => {
  it("fails the dead run and sends from a run of its own", async () => {
    const reader = createArraySourceReader(sampleSourceRows());
    const location = await createConnectedLocation(db, setup, { sourceKey: "dead-run" });
    await runManualTestSync(db, location.id, reader, { now });
    await computeQueuedPreview(db, location.id, reader, now);
    // What a killed process (kill -9 of a worker, an interrupted `npm run cli -- preview`) leaves: a run still marked
    // running, whose lease nobody renews any more. No pg-boss job would retry it.
    const [dead] = await db
      .insert(previewRuns)
      .values({ locationId: location.id, requestedByEmail: "cli", status: "running", fencingToken: 1, leaseExpiresAt: new Date(Date.now() - 60_000) })
      .returning();

    const { sessionId, result } = await runFullResync(location.id, reader);
    expect(await result).toBe("succeeded");

    const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
    expect(session).toMatchObject({ status: "succeeded", error: null });
    expect(session!.previewRunId).not.toBe(dead!.id);
    // Failed, then deleted as history once the session's run succeeded: nothing of the location is in flight.
    expect((await getPreviewRuns(db, location.id)).active).toBeNull();
  }, 30_000);
});

describe("a session after a preview run that is alive but slow", () => {
  it("waits for a run blocked on a source read for several of its leases, then sends from a run of its own", async () => {
    const [sourceKey] = await generateDemoSource(db, { locations: 1, contacts: 10, years: 1, seed: 31, sourceKeys: ["slow-run"] });
    const location = await createConnectedLocation(db, setup, { sourceKey });
    await runManualTestSync(db, location.id, sqlReader);

    // The CLI's `preview` (a run with no job), with a lease of 1 s, whose first source read waits on a lock held on the source.
    const connection = await testDb.sql.reserve();
    await connection.unsafe("begin");
    await connection.unsafe("lock table demo_source.customers in access exclusive mode");
    let slowRunId: string;
    let slowRun: Promise<void>;
    try {
      const [run] = await db
        .insert(previewRuns)
        .values({ locationId: location.id, requestedByEmail: "cli", leaseExpiresAt: leaseFromNow(1) })
        .returning();
      slowRunId = run!.id;
      slowRun = computePreview(systemContext(db), { runId: slowRunId, reader: sqlReader, leaseSeconds: 1 });
      await waitFor(async () => {
        const [waiting] = await testDb.sql`select 1 from pg_stat_activity
          where application_name = 'location-sync-source' and wait_event_type = 'Lock' and query like '%demo_source%'`;
        return Boolean(waiting);
      });

      const { sessionId, result } = await runFullResync(location.id, sqlReader, 1);
      // Four of the run's leases: a run renewed between batches only would have been failed by now.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      const [waitingRun] = await db.select().from(previewRuns).where(eq(previewRuns.id, slowRunId));
      expect(waitingRun).toMatchObject({ status: "running", error: null });
      const [waitingSession] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
      expect(waitingSession).toMatchObject({ status: "running", error: null, previewRunId: null });

      await connection.unsafe("rollback");
      // What the CLI reads once its run returns (the session's run, once it succeeds, deletes it as history).
      const finished = await slowRun.then(() => db.select().from(previewRuns).where(eq(previewRuns.id, slowRunId)));
      expect(finished).toMatchObject([{ status: "succeeded", error: null }]);
      expect(await result).toBe("succeeded");
      const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
      expect(session).toMatchObject({ status: "succeeded", error: null });
      expect(session!.previewRunId).not.toBe(slowRunId);
    } finally {
      await connection.unsafe("rollback");
      connection.release();
    }
  }, 60_000);
});

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { syncAttempts, syncSessions, syncStepItems, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemContext } from "@/lib/operations/context";
import { injectFault, listFaults } from "@/lib/sandbox/faults";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { createSqlSourceReader } from "@/lib/source/sql-source-reader";
import { recoverAbandonedSessions } from "./recover-sessions";
import { requestSyncSession } from "./request-session";
import { runSession } from "./run-session";
import { compareType } from "./testing/sync-assertions";
import { computeQueuedPreview, createConnectedLocation, noWaits, useSyncSandbox } from "./testing/sync-test-setup";

// The worker is its own process: it opens the location token with the same key as this test.
process.env.APP_SECRET_KEY ??= randomBytes(32).toString("base64");
const testDb = await useTestDatabase();
const { db } = testDb;
const reader = createSqlSourceReader({ url: testDb.url });
const root = path.resolve(import.meta.dirname, "../..");
const setup = await useSyncSandbox(db);
afterAll(async () => {
  await reader.close();
});

function startWorker(sessionId: string) {
  // node itself (not the tsx wrapper, which would survive as a parent while its child is killed, or vice versa).
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "lib/sync/testing/session-worker-child.ts"), sessionId], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "development",
      DATABASE_URL: testDb.url,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "worker-")),
      APP_SECRET_KEY: process.env.APP_SECRET_KEY,
      SYNC_CONTACT_CHUNK_SIZE: "10",
      SYNC_LEASE_SECONDS: "2",
    },
    stdio: process.env.DEBUG_WORKER ? "inherit" : "ignore",
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
  return { child, exited };
}

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// Seed 8 at probability 0.5: the first request to the target passes, the second (the step's second item) hangs for 30 s.
const crashes = [
  { step: "contact_details", target: "upload", sourceKey: "crash-contacts" },
  { step: "appointments", target: "batch_sync_appointments", sourceKey: "crash-appointments" },
] as const;

describe("a worker killed mid-step", () => {
  it.each(crashes)(
    "is taken over after its lease expires during $step; accepted items are not sent again and the final state is correct",
    async (crash) => {
      const [sourceKey] = await generateDemoSource(db, { locations: 1, contacts: 25, years: 1, seed: 21, sourceKeys: [crash.sourceKey] });
      const location = await createConnectedLocation(db, setup, { sourceKey });
      await injectFault(db, { target: crash.target, mode: { kind: "delay", ms: 30_000 }, probability: 0.5, seed: 8, count: 1 });
      const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
      const sessionId = requested.sessionId!;
      const worker = startWorker(sessionId);
      // As a worker process takes the session's job before it runs it: the job stays active when the worker dies.
      await testDb.sql`update pgboss.job set state = 'active' where data ->> 'sessionId' = ${sessionId}`;

      const crashedStep = await until(async () => {
        const [step] = await db
          .select()
          .from(syncSteps)
          .where(and(eq(syncSteps.sessionId, sessionId), eq(syncSteps.name, crash.step)));
        if (!step) return undefined;
        const items = await db.select().from(syncStepItems).where(eq(syncStepItems.stepId, step.id)).orderBy(asc(syncStepItems.position));
        if (items[0]?.status !== "succeeded" || items[1]?.status !== "running") return undefined;
        // The item is marked running before its request is sent: killed before the sandbox took the delay, the
        // survivor's retry would be the request the delay hits.
        return (await listFaults(db)).length === 0 ? step : undefined;
      }, `the second ${crash.step} item's request to hang in the sandbox`);
      worker.child.kill("SIGKILL");
      expect(await worker.exited).toBe("SIGKILL");

      const [abandoned] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
      expect(abandoned).toMatchObject({ status: "running", leaseOwner: "doomed-worker", fencingToken: 1 });
      // Too early: the lease still holds.
      await expect(runSession(systemContext(testDb.db), { sessionId, reader, client: noWaits, owner: "survivor" })).rejects.toThrow(
        /held by another worker/,
      );
      await until(async () => ((await recoverAbandonedSessions(systemContext(db))).includes(sessionId) ? true : undefined), "the lease to expire");

      expect(
        await runSession(systemContext(testDb.db), { sessionId, reader, client: noWaits, owner: "survivor", config: { stepBackoffMs: 0 } }),
      ).toBe("succeeded");
      const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
      expect(session).toMatchObject({ status: "succeeded", leaseOwner: "survivor", fencingToken: 2, upstreamOpen: false });
      const items = await db.select().from(syncStepItems).where(eq(syncStepItems.stepId, crashedStep.id)).orderBy(asc(syncStepItems.position));
      expect(items.length).toBeGreaterThanOrEqual(3);
      expect(items.map((item) => [item.status, item.attempts])).toEqual(items.map((_, index) => ["succeeded", index === 1 ? 2 : 1]));
      const firstItemUploads = await db
        .select()
        .from(syncAttempts)
        .where(and(eq(syncAttempts.itemId, items[0]!.id), eq(syncAttempts.method, "PUT")));
      expect(firstItemUploads).toHaveLength(1);
      // At the session's moment: the next 72 hours of openings it sent, not those of a slot start later.
      await computeQueuedPreview(testDb.db, location.id, reader, session!.startedAt!);
      for (const type of ["calendars", "services", "contact_details", "appointments", "openings"] as const) {
        const compared = await compareType(db, { locationId: location.id, upstreamLocationId: location.upstreamLocationId, type });
        expect(compared.stored, type).toEqual(compared.expected);
        expect(compared.syncedKeys, type).toEqual(Object.keys(compared.expected).sort());
      }
    },
    120_000,
  );
});

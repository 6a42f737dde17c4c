import { asc, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { syncSessions, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemContext } from "@/lib/operations/context";
import { injectFault } from "@/lib/sandbox/faults";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import type { SourceReader } from "@/lib/source/source-reader";
import { createSqlSourceReader } from "@/lib/source/sql-source-reader";
import { startDroppingRelay } from "@/lib/source/testing/dropping-relay";
import { requestSyncSession } from "./request-session";
import { runSession } from "./run-session";
import { cancelSession } from "./session-actions";
import { createConnectedLocation, noWaits, useSyncSandbox } from "./testing/sync-test-setup";

// A source statement that blocks (a lock held on the management system, a slow plan) must not hold a cancelled session
// until SOURCE_STATEMENT_TIMEOUT_SECONDS: the lease's renewal sees the cancel and the statement is cancelled on the source.

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
// Its own reader (no statement timeout): a session this test cancels must not share a pool with other tests.
const reader = createSqlSourceReader({ url: testDb.url });
afterAll(async () => {
  await reader.close();
});

/** The source's statements that are running or waiting now (application_name of the source reader). */
async function sourceStatementsInFlight(): Promise<string[]> {
  const rows = await testDb.sql<{ query: string }[]>`
    select query from pg_stat_activity where application_name = 'location-sync-source' and state = 'active'`;
  return rows.map((row) => row.query);
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; !(await condition()); tries++) {
    if (tries > 600) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starts a manual session of the location in this process (a lease of 1 s: renewed, and the cancel seen, every 333 ms). */
async function startSession(locationId: string, sourceReader: SourceReader) {
  const requested = await requestSyncSession(systemContext(db), { locationId, trigger: "manual", requestedByEmail: null });
  const sessionId = requested.sessionId!;
  const running = runSession(systemContext(testDb.db), {
    sessionId,
    reader: sourceReader,
    client: noWaits,
    config: { leaseSeconds: 1, stepBackoffMs: 0 },
  });
  return { sessionId, running };
}

/** Holds an exclusive lock on a source table in a transaction of its own until `release` is called. */
async function lockSourceTable(table: "appointments" | "customers") {
  const connection = await testDb.sql.reserve();
  await connection.unsafe("begin");
  await connection.unsafe(`lock table demo_source.${table} in access exclusive mode`);
  return async () => {
    await connection.unsafe("rollback");
    connection.release();
  };
}

describe("cancel while a source statement is blocked", () => {
  it("stops a session whose first source statement waits on a lock, and the statement leaves the source", async () => {
    const [sourceKey] = await generateDemoSource(db, { locations: 1, contacts: 10, years: 1, seed: 21, sourceKeys: ["blocked-first"] });
    const location = await createConnectedLocation(db, setup, { sourceKey });
    const release = await lockSourceTable("customers");
    try {
      const { sessionId, running } = await startSession(location.id, reader);
      await waitFor(async () => (await sourceStatementsInFlight()).some((query) => query.includes("demo_source")));

      expect(await cancelSession({ db, actor: systemActor }, { sessionId: sessionId })).toEqual({ status: "running" });
      // The lock is still held: only cancelling the statement on the source ends the session.
      expect(await running).toBe("cancelled");
      // The cancel request reaches the source on its own connection: the session does not wait for it.
      await waitFor(async () => (await sourceStatementsInFlight()).length === 0);
      const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
      expect(session).toMatchObject({ status: "cancelled", error: "The session was cancelled." });
    } finally {
      await release();
    }
  });

  it("stops a streamed step whose next month's read waits on a lock; the step and its item read cancelled", async () => {
    const [sourceKey] = await generateDemoSource(db, { locations: 1, contacts: 10, years: 1, seed: 22, sourceKeys: ["blocked-month"] });
    const location = await createConnectedLocation(db, setup, { sourceKey });
    // The contacts upload is held by the sandbox while the appointments table gets locked: their months then wait.
    await injectFault(db, { target: "contact_details", mode: { kind: "delay", ms: 1500 }, count: 1 });
    const { sessionId, running } = await startSession(location.id, reader);
    await waitFor(async () => {
      const [item] = await testDb.sql`select 1 from sync_step_items i join sync_steps s on s.id = i.step_id
        where s.session_id = ${sessionId} and s.name = 'contact_details' and i.status = 'running'`;
      return Boolean(item);
    });
    const release = await lockSourceTable("appointments");
    try {
      await waitFor(async () => {
        const [appointments] = await testDb.sql`select 1 from sync_step_items i join sync_steps s on s.id = i.step_id
          where s.session_id = ${sessionId} and s.name = 'appointments' and i.status = 'running'`;
        return Boolean(appointments) && (await sourceStatementsInFlight()).length > 0;
      });

      expect(await cancelSession({ db, actor: systemActor }, { sessionId: sessionId })).toEqual({ status: "running" });
      expect(await running).toBe("cancelled");
      // The cancel request reaches the source on its own connection: the session does not wait for it.
      await waitFor(async () => (await sourceStatementsInFlight()).length === 0);
      const steps = await db.select().from(syncSteps).where(eq(syncSteps.sessionId, sessionId)).orderBy(asc(syncSteps.position));
      expect(steps.slice(4).map((step) => `${step.name}:${step.status}`)).toEqual([
        "contact_details:succeeded",
        "vehicles:skipped",
        "appointments:cancelled",
        "openings:pending",
        "close:pending",
      ]);
      const items = await testDb.sql<{ status: string; error: string | null }[]>`
        select i.status, i.error from sync_step_items i join sync_steps s on s.id = i.step_id
        where s.session_id = ${sessionId} and s.name = 'appointments' and i.status <> 'pending'`;
      expect(items).toEqual([{ status: "cancelled", error: null }]);
    } finally {
      await release();
    }
  });

  it("stops a session whose source can no longer be reached, without waiting for the source to answer", async () => {
    const [sourceKey] = await generateDemoSource(db, { locations: 1, contacts: 10, years: 1, seed: 23, sourceKeys: ["unreachable"] });
    const location = await createConnectedLocation(db, setup, { sourceKey });
    const relay = await startDroppingRelay(testDb.url);
    const relayedReader = createSqlSourceReader({ url: relay.url });
    const release = await lockSourceTable("customers");
    try {
      const { sessionId, running } = await startSession(location.id, relayedReader);
      await waitFor(async () => (await sourceStatementsInFlight()).some((query) => query.includes("demo_source")));
      // The link is cut: neither the statement's answer nor a cancel request gets through any more.
      relay.drop();

      expect(await cancelSession({ db, actor: systemActor }, { sessionId: sessionId })).toEqual({ status: "running" });
      expect(await running).toBe("cancelled");
      const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
      expect(session).toMatchObject({ status: "cancelled", error: "The session was cancelled." });
    } finally {
      await release();
      await relay.close();
      await relayedReader.close();
    }
  });
});

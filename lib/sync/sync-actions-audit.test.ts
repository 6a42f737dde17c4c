import { and, asc, eq } from "drizzle-orm";
import { systemContext } from "@/lib/operations/context";
import { afterEach, describe, expect, it } from "vitest";
import { auditLog } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { closeUpstreamSession } from "./close-upstream-session";
import { runSession } from "./run-session";
import { cancelSession, resumeSession } from "./session-actions";
import { startManualSession } from "./start-manual-session";
import { sampleNow, sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, noWaits, useSyncSandbox } from "./testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
afterEach(() => clearFaults(db));

const support = { id: "00000000-0000-4000-8000-00000000a001", role: "support", email: "support@example.test", clientAddress: "203.0.113.7" } as const;
const admin = { id: "00000000-0000-4000-8000-00000000a002", role: "admin", email: "admin@example.test", clientAddress: "203.0.113.8" } as const;

async function auditOf(locationId: string) {
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, "location"), eq(auditLog.targetId, locationId)))
    .orderBy(asc(auditLog.id));
  return rows.filter((row) => row.action.startsWith("sync."));
}

describe("sync actions are audited with who did them", () => {
  it("start, cancel and resume: each with its actor, the location and the session", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const started = await startManualSession({ db, actor: support }, { locationId: location.id, full: true });
    expect(await cancelSession({ db, actor: admin }, { sessionId: started.sessionId })).toEqual({ status: "cancelled" });
    // Cancelling what is already over changes nothing and records nothing.
    await cancelSession({ db, actor: admin }, { sessionId: started.sessionId });
    const resumed = await resumeSession({ db, actor: support }, { sessionId: started.sessionId });

    expect(
      (await auditOf(location.id)).map((row) => [row.action, row.actorUserId, row.actorEmail, row.clientAddress, row.targetLabel, row.details]),
    ).toEqual([
      [
        "sync.session_started",
        support.id,
        support.email,
        support.clientAddress,
        location.name,
        { sessionId: started.sessionId, trigger: "manual", full: true },
      ],
      ["sync.session_cancelled", admin.id, admin.email, admin.clientAddress, location.name, { sessionId: started.sessionId, was: "queued" }],
      [
        "sync.session_resumed",
        support.id,
        support.email,
        support.clientAddress,
        location.name,
        { sessionId: resumed.sessionId, resumesSessionId: started.sessionId },
      ],
    ]);
  });

  it("a cancel that reaches a running session after its last request is audited as asked for, not as done, and once", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    // Opening and closing the upstream session each wait a second: the cancel arrives while the close is in flight.
    await injectFault(db, { target: "update_management_system", mode: { kind: "delay", ms: 1000 }, count: 2 });
    const started = await startManualSession({ db, actor: support }, { locationId: location.id, full: false });
    const running = runSession(systemContext(testDb.db), {
      sessionId: started.sessionId,
      reader: createArraySourceReader(sampleSourceRows()),
      now: sampleNow,
      client: noWaits,
    });
    for (;;) {
      const [closing] = await testDb.sql`select 1 from sync_steps where session_id = ${started.sessionId} and name = 'close' and status = 'running'`;
      if (closing) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Asked three times at once (a double click, two people): one request, audited once.
    const asked = await Promise.all([1, 2, 3].map(() => cancelSession({ db, actor: admin }, { sessionId: started.sessionId })));
    expect(asked).toEqual([{ status: "running" }, { status: "running" }, { status: "running" }]);
    expect(await running).toBe("succeeded");

    expect((await auditOf(location.id)).map((row) => [row.action, row.actorEmail, row.details])).toEqual([
      ["sync.session_started", support.email, { sessionId: started.sessionId, trigger: "manual", full: false }],
      ["sync.session_cancel_requested", admin.email, { sessionId: started.sessionId, was: "running" }],
    ]);
  });

  it("closing an upstream session: audited when it closed, and when the upstream refused", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await injectFault(db, { target: "batch_sync_services", mode: { kind: "status", status: 500 }, count: 1000 });
    const started = await startManualSession({ db, actor: support }, { locationId: location.id, full: false });
    const options = {
      reader: createArraySourceReader(sampleSourceRows()),
      now: sampleNow,
      client: { ...noWaits, maxAttempts: 1 },
      config: { stepBackoffMs: 0, stepAttempts: 1 },
    };
    expect(await runSession(systemContext(testDb.db), { sessionId: started.sessionId, ...options })).toBe("failed");
    await clearFaults(db);

    await injectFault(db, { target: "update_management_system", mode: { kind: "status", status: 503 }, count: 1000 });
    await expect(
      closeUpstreamSession({ db, actor: admin, upstreamClient: { ...noWaits, maxAttempts: 1 } }, { sessionId: started.sessionId }),
    ).rejects.toMatchObject({
      code: "UPSTREAM_UNAVAILABLE",
    });
    await clearFaults(db);
    await closeUpstreamSession({ db, actor: admin, upstreamClient: noWaits }, { sessionId: started.sessionId });

    const closing = (await auditOf(location.id)).filter((row) => row.action.startsWith("sync.upstream"));
    expect(closing.map((row) => [row.action, row.actorUserId, row.actorEmail, row.targetLabel, row.details.sessionId])).toEqual([
      ["sync.upstream_close_failed", admin.id, admin.email, location.name, started.sessionId],
      ["sync.upstream_closed", admin.id, admin.email, location.name, started.sessionId],
    ]);
    expect(closing[0]!.details.reason).toMatch(/503/);
  });
});

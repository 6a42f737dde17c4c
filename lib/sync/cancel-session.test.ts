import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { locations, syncSessions, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemContext } from "@/lib/operations/context";
import { injectFault } from "@/lib/sandbox/faults";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { requestSyncSession } from "./request-session";
import { runSession } from "./run-session";
import { cancelSession } from "./session-actions";
import { sampleNow, sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, noWaits, useSyncSandbox } from "./testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);

describe("cancel", () => {
  it("stops a running session between requests and leaves the upstream session open", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await injectFault(db, { target: "contact_details", mode: { kind: "delay", ms: 1500 }, count: 1 });
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    const running = runSession(systemContext(testDb.db), {
      sessionId: requested.sessionId!,
      reader: createArraySourceReader(sampleSourceRows()),
      now: sampleNow,
      client: noWaits,
    });
    // Cancel while the contacts upload is in flight (delayed by the sandbox): it must finish, and nothing after it starts.
    for (;;) {
      const [item] = await testDb.sql`select 1 from sync_step_items i join sync_steps s on s.id = i.step_id
        where s.session_id = ${requested.sessionId!} and s.name = 'contact_details' and i.status = 'running'`;
      if (item) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await cancelSession({ db, actor: systemActor }, { sessionId: requested.sessionId! })).toEqual({ status: "running" });
    expect(await running).toBe("cancelled");

    const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
    expect(session).toMatchObject({ status: "cancelled", upstreamOpen: true });
    const steps = await db.select().from(syncSteps).where(eq(syncSteps.sessionId, session!.id)).orderBy(asc(syncSteps.position));
    expect(steps.slice(4).map((step) => `${step.name}:${step.status}`)).toEqual([
      "contact_details:succeeded",
      "vehicles:skipped",
      "appointments:pending",
      "openings:pending",
      "close:pending",
    ]);
    const [flagged] = await db.select().from(locations).where(eq(locations.id, location.id));
    expect(flagged!.attentionReason).toBe("The last sync was cancelled at contact_details. Resume it or close the upstream session.");
  });

  it("cancels a queued session at once; no worker runs it", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(await cancelSession({ db, actor: systemActor }, { sessionId: requested.sessionId! })).toEqual({ status: "cancelled" });
    expect(await runSession(systemContext(testDb.db), { sessionId: requested.sessionId!, client: noWaits })).toBe("finished");
    const again = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(again.started).toBe(true);
  });
});

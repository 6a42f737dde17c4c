import { asc, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { locations, previewRecords, previewRuns, syncSessions, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemContext } from "@/lib/operations/context";
import { injectFault } from "@/lib/sandbox/faults";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { requestSyncSession } from "./request-session";
import { runSession } from "./run-session";
import { cancelSession } from "./session-actions";
import { sampleNow, sampleSourceRows } from "./testing/sample-source";
import { computeQueuedPreview, createConnectedLocation, noWaits, runManualTestSync, useSyncSandbox } from "./testing/sync-test-setup";

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

  // A session computes its preview in-line (~40 s at a million appointments after a change of mapping rules): it stops
  // between batches of the source, not after the whole run.
  it.each(["incremental", "full"] as const)(
    "stops a session computing its preview in-line (%s) between batches of the source; the records stay as they were",
    async (mode) => {
      const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
      const rows = sampleSourceRows();
      await runManualTestSync(db, location.id, rows, { now: sampleNow });
      await computeQueuedPreview(testDb.db, location.id, createArraySourceReader(rows), sampleNow);
      // Another mapping basis: the next run maps everything again.
      if (mode === "full") await db.update(previewRuns).set({ mappingBasis: "an earlier mapping" }).where(eq(previewRuns.locationId, location.id));
      const before = await db
        .select()
        .from(previewRecords)
        .where(eq(previewRecords.locationId, location.id))
        .orderBy(previewRecords.recordType, previewRecords.seq);

      const changed = structuredClone(rows);
      changed.customers![0]!.first_name = "Changed";
      const reader = createArraySourceReader(changed);
      const read = reader.read.bind(reader);
      let batches = 0;
      // The customers this run reads never end: only a stop between batches ends the session.
      reader.read = async function* (resource, params, options) {
        const endless = resource === "customers" && (mode === "incremental" ? Boolean(options?.filter?.changedSince) : !options?.filter);
        if (!endless) return yield* read(resource, params, options);
        const [first] = await Array.fromAsync(read(resource, params, { ...options, batchSize: 1 }));
        for (;;) {
          batches++;
          yield first!;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      };
      const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
      const running = runSession(systemContext(testDb.db), { sessionId: requested.sessionId!, reader, now: sampleNow, client: noWaits });
      while (batches < 3) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await cancelSession({ db, actor: systemActor }, { sessionId: requested.sessionId! })).toEqual({ status: "running" });
      expect(await running).toBe("cancelled");

      const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
      expect(session).toMatchObject({ status: "cancelled", upstreamOpen: false });
      const runs = await db.select().from(previewRuns).where(eq(previewRuns.locationId, location.id)).orderBy(desc(previewRuns.createdAt));
      expect(runs[0]).toMatchObject({ status: "failed", error: "The sync session computing it stopped: The session was cancelled." });
      expect(
        await db
          .select()
          .from(previewRecords)
          .where(eq(previewRecords.locationId, location.id))
          .orderBy(previewRecords.recordType, previewRecords.seq),
      ).toEqual(before);
    },
  );

  it("cancels a queued session at once; no worker runs it", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(await cancelSession({ db, actor: systemActor }, { sessionId: requested.sessionId! })).toEqual({ status: "cancelled" });
    expect(await runSession(systemContext(testDb.db), { sessionId: requested.sessionId!, client: noWaits })).toBe("finished");
    const again = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(again.started).toBe(true);
  });
});

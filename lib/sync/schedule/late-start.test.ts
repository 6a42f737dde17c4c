import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { locations, syncSessions, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemContext } from "@/lib/operations/context";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { requestSyncSession } from "../request-session";
import { runSession } from "../run-session";
import { sampleSourceRows } from "../testing/sample-source";
import { createConnectedLocation, noWaits, sandboxRequests, useSyncSandbox } from "../testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);

/** A scheduled session of a Tokyo location due on `scheduledFor`, run as a worker picks it up at `now`. */
async function scheduledRun(scheduledFor: string, now: Date) {
  const location = await createConnectedLocation(db, setup, { sourceKey: "array", timeZone: "Asia/Tokyo" });
  const before = (await sandboxRequests(db, location.upstreamLocationId)).length;
  const requested = await requestSyncSession(systemContext(db), {
    locationId: location.id,
    trigger: "schedule",
    requestedByEmail: null,
    scheduledFor,
  });
  const result = await runSession(systemContext(db), {
    sessionId: requested.sessionId!,
    reader: createArraySourceReader(sampleSourceRows()),
    now,
    client: noWaits,
    config: { stepBackoffMs: 0 },
  });
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
  const steps = await db.select().from(syncSteps).where(eq(syncSteps.sessionId, requested.sessionId!)).orderBy(asc(syncSteps.position));
  return { result, session: session!, steps, sent: (await sandboxRequests(db, location.upstreamLocationId)).slice(before) };
}

describe("a scheduled session picked up late", () => {
  it("queued at 18:59 and picked up at 04:19 the next day does not start: nothing is sent, the reason says why", async () => {
    const late = await scheduledRun("2026-12-07", new Date("2026-12-07T19:19:00Z"));
    expect(late.result).toBe("cancelled");
    expect(late.sent).toEqual([]);
    expect(late.steps).toEqual([]);
    expect(late.session).toMatchObject({ status: "cancelled", upstreamOpen: false });
    expect(late.session.error).toBe(
      "Not started: it was due on 2026-12-07 and was picked up on 2026-12-08 04:19 (Asia/Tokyo); a scheduled sync runs on its own day, between 09:00 and 19:00. The next one runs as planned.",
    );
  });

  it("picked up on its day but after 19:00 does not start either", async () => {
    const late = await scheduledRun("2026-12-07", new Date("2026-12-07T10:30:00Z"));
    expect(late.result).toBe("cancelled");
    expect(late.sent).toEqual([]);
    expect(late.session.error).toMatch(/^Not started: it was picked up on 2026-12-07 19:30 \(Asia\/Tokyo\), outside the hours/);
  });

  it("skipped for starting late, it leaves the location's attention as the failed session before it set it", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array", timeZone: "Asia/Tokyo" });
    await injectFault(db, { target: "batch_sync_appointments", mode: { kind: "status", status: 502 }, count: 1000 });
    const failing = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    const options = {
      reader: createArraySourceReader(sampleSourceRows()),
      client: { ...noWaits, maxAttempts: 1 },
      config: { stepBackoffMs: 0, stepAttempts: 1 },
    };
    expect(await runSession(systemContext(db), { sessionId: failing.sessionId!, now: new Date("2026-12-06T02:00:00Z"), ...options })).toBe("failed");
    await clearFaults(db);
    const attentionOf = async () => (await db.select().from(locations).where(eq(locations.id, location.id)))[0]!.attentionReason;
    const failed = await attentionOf();
    expect(failed).toMatch(/^The last sync failed at appointments: .* Resume it or close the upstream session\.$/);
    const scheduled = await requestSyncSession(systemContext(db), {
      locationId: location.id,
      trigger: "schedule",
      requestedByEmail: null,
      scheduledFor: "2026-12-07",
    });
    expect(await runSession(systemContext(db), { sessionId: scheduled.sessionId!, now: new Date("2026-12-07T19:19:00Z"), ...options })).toBe(
      "cancelled",
    );
    expect(await attentionOf()).toBe(failed);
  });

  it("picked up on its day inside the window runs", async () => {
    const onTime = await scheduledRun("2026-12-07", new Date("2026-12-07T09:58:00Z"));
    expect(onTime.result).toBe("succeeded");
    expect(onTime.sent.at(0)).toBe("PUT update_management_system 200");
    expect(onTime.sent.at(-1)).toBe("PUT update_management_system 200");
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { locations, previewRuns, syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { systemContext } from "@/lib/operations/context";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { requestSyncSession } from "@/lib/sync/request-session";
import { runSession } from "@/lib/sync/run-session";
import { sampleNow as now, sampleSourceRows } from "@/lib/sync/testing/sample-source";
import { computeQueuedPreview, createConnectedLocation, noWaits, useSyncSandbox } from "@/lib/sync/testing/sync-test-setup";
import { SOURCE_KEY_CHANGED, updateLocation } from "./update-location";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
const actor = systemActorAs("support@example.test", "test");
const reader = createArraySourceReader(sampleSourceRows());

async function requestSession(locationId: string) {
  const requested = await requestSyncSession(systemContext(db), { locationId, trigger: "manual", requestedByEmail: null });
  expect(requested.started).toBe(true);
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
  return session!;
}

/** Runs a requested session to success; returns it with the mode of the preview run it sent from. */
async function runToSuccess(sessionId: string) {
  const result = await runSession(systemContext(testDb.db), { sessionId, reader, now, client: noWaits, config: { stepBackoffMs: 0 } });
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
  expect({ result, error: session!.error }).toEqual({ result: "succeeded", error: null });
  // The preview job's part: a streamed first sync leaves the location's first preview queued.
  await computeQueuedPreview(testDb.db, session!.locationId, reader, now);
  const [run] = session!.previewRunId ? await db.select().from(previewRuns).where(eq(previewRuns.id, session!.previewRunId)) : [];
  return { full: session!.full, previewMode: session!.quiet ? "quiet" : (run?.mode ?? "streamed") };
}

async function fullSyncReasonOf(locationId: string) {
  const [row] = await db.select({ reason: locations.fullSyncReason }).from(locations).where(eq(locations.id, locationId));
  return row!.reason;
}

describe("a change of source key", () => {
  it("makes the next preview and the next sync session full; the full session's success clears the reason", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "salon-a" });
    expect(await runToSuccess((await requestSession(location.id)).id)).toEqual({ full: false, previewMode: "streamed" });
    // Nothing changed in the source: the next session is quiet (lib/sync/quiet), it computes no preview.
    expect(await runToSuccess((await requestSession(location.id)).id)).toEqual({ full: false, previewMode: "quiet" });

    await updateLocation({ db, actor }, { locationId: location.id, sourceKey: "salon-b" });
    expect(await fullSyncReasonOf(location.id)).toBe(SOURCE_KEY_CHANGED);
    const rebuilding = await requestSession(location.id);
    expect(rebuilding.full).toBe(true);
    expect(await runToSuccess(rebuilding.id)).toEqual({ full: true, previewMode: "full" });
    expect(await fullSyncReasonOf(location.id)).toBeNull();

    expect(await runToSuccess((await requestSession(location.id)).id)).toEqual({ full: false, previewMode: "quiet" });
  });

  it("keeps the reason when the source key changed again after the full session was requested", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "salon-c" });
    await runToSuccess((await requestSession(location.id)).id);
    await updateLocation({ db, actor }, { locationId: location.id, sourceKey: "salon-d" });
    const session = await requestSession(location.id);
    await updateLocation({ db, actor }, { locationId: location.id, sourceKey: "salon-e" });
    expect(await runToSuccess(session.id)).toMatchObject({ full: true });
    expect(await fullSyncReasonOf(location.id)).toBe(SOURCE_KEY_CHANGED);
    expect((await requestSession(location.id)).full).toBe(true);
  });
});

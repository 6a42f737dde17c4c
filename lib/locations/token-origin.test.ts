import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, locations, sandboxRequestLog, syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { getEnvironmentView } from "@/lib/environments/get-environment-view";
import { pointEnvironmentAtSandbox } from "@/lib/environments/point-at-sandbox";
import { systemContext } from "@/lib/operations/context";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { closeUpstreamSession } from "@/lib/sync/close-upstream-session";
import { requestSyncSession } from "@/lib/sync/request-session";
import { runSession, type RunSessionOptions } from "@/lib/sync/run-session";
import { sampleNow, sampleSourceRows } from "@/lib/sync/testing/sample-source";
import { createConnectedLocation, noWaits, useSyncSandbox } from "@/lib/sync/testing/sync-test-setup";
import { startRecordingProxy, type RecordingProxy } from "@/lib/upstream/testing/recording-proxy";
import { getLocationRow } from "./get-location";
import { ADDRESS_CHANGED_REASON } from "./location-token";
import { testConnection } from "./test-connection";

// A Location Access Token goes only to the origin that issued it. A second upstream on another port records
// everything it receives: after a base-URL change it must receive nothing, unless the admin confirms the service moved.
const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
const admin = systemActorAs("admin@example.test");
const support = systemActorAs("support@example.test", "198.51.100.7");
let second: RecordingProxy;

beforeAll(async () => {
  second = await startRecordingProxy(setup.sandbox.apiBaseUrl);
});
afterAll(() => second.close());

const options: RunSessionOptions = {
  reader: createArraySourceReader(sampleSourceRows()),
  now: sampleNow,
  client: noWaits,
  config: { stepBackoffMs: 0, stepAttempts: 1 },
};

function pointStagingAt(apiBaseUrl: string, extra: { tokensMoveToNewAddress?: boolean } = {}) {
  const { uploadOrigin } = setup.sandbox;
  return pointEnvironmentAtSandbox({ db, actor: admin }, { name: "staging", apiBaseUrl, uploadOrigin, credentials: setup.fixture, ...extra });
}

async function sandboxLogCount(upstreamLocationId: string) {
  return (await db.select().from(sandboxRequestLog).where(eq(sandboxRequestLog.locationId, upstreamLocationId))).length;
}

describe("location tokens after a base-URL change", () => {
  it("without the admin's confirmation, a sync, Test connection and Close upstream session send the new address nothing", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    expect((await getLocationRow(db, location.id)).locationTokenOrigin).toBe(new URL(setup.sandbox.apiBaseUrl).origin);
    expect((await getEnvironmentView(systemContext(db), { name: "staging" })).connectedLocations).toBe(1);

    await pointStagingAt(second.url);
    expect(await getLocationRow(db, location.id)).toMatchObject({ attentionReason: ADDRESS_CHANGED_REASON });
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "environment.credentials_changed"), eq(auditLog.actorEmail, admin.email!)));
    expect(audit!.details).toMatchObject({ locationsNeedingReconnect: 1 });
    const sandboxBefore = await sandboxLogCount(location.upstreamLocationId);

    const check = await testConnection({ db, actor: support }, { locationId: location.id });
    expect(check).toMatchObject({ ok: false, message: ADDRESS_CHANGED_REASON, location: { attentionReason: ADDRESS_CHANGED_REASON } });

    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(await runSession(systemContext(testDb.db), { sessionId: requested.sessionId!, ...options })).toBe("failed");
    const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
    expect(session!.error).toBe(ADDRESS_CHANGED_REASON);
    expect((await getLocationRow(db, location.id)).attentionReason).toBe(ADDRESS_CHANGED_REASON);

    // A session that had left the upstream open: closing it would need the token too.
    await db.update(syncSessions).set({ upstreamOpen: true }).where(eq(syncSessions.id, requested.sessionId!));
    await expect(closeUpstreamSession({ db, actor: support, upstreamClient: noWaits }, { sessionId: requested.sessionId! })).rejects.toMatchObject({
      code: "CONFLICT",
      message: ADDRESS_CHANGED_REASON,
    });

    expect(second.exchanges).toEqual([]);
    expect(await sandboxLogCount(location.upstreamLocationId)).toBe(sandboxBefore);

    // The old address again: the token is usable where it came from.
    await pointStagingAt(setup.sandbox.apiBaseUrl);
    expect((await getLocationRow(db, location.id)).attentionReason).toBeNull();
    expect(await testConnection({ db, actor: support }, { locationId: location.id })).toMatchObject({ ok: true });
    await db.update(syncSessions).set({ upstreamOpen: false }).where(eq(syncSessions.id, requested.sessionId!));
  });

  it("with the admin's confirmation that the service moved, the tokens go to the new address (audited with the count)", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const connected = (await getEnvironmentView(systemContext(db), { name: "staging" })).connectedLocations;
    expect(connected).toBe(2);
    second.exchanges.length = 0;

    const view = await pointStagingAt(second.url, { tokensMoveToNewAddress: true });
    expect(view.connectedLocations).toBe(connected);
    const [moved] = await db.select().from(auditLog).where(eq(auditLog.action, "environment.location_tokens_moved"));
    expect(moved).toMatchObject({ actorEmail: admin.email, targetId: "staging" });
    expect(moved!.details).toEqual({ from: new URL(setup.sandbox.apiBaseUrl).origin, to: new URL(second.url).origin, locations: connected });
    expect(await getLocationRow(db, location.id)).toMatchObject({ locationTokenOrigin: new URL(second.url).origin, attentionReason: null });

    expect(await testConnection({ db, actor: support }, { locationId: location.id })).toMatchObject({ ok: true });
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(await runSession(systemContext(testDb.db), { sessionId: requested.sessionId!, ...options })).toBe("succeeded");
    const withToken = second.exchanges.filter((exchange) => exchange.requestHeaders.authorization?.startsWith("Bearer "));
    expect(withToken.map((exchange) => `${exchange.method} ${exchange.path}`)).toContain("GET /v1/users/me");
    expect(withToken.some((exchange) => exchange.path.includes("update_management_system"))).toBe(true);
    expect(
      await db
        .select()
        .from(locations)
        .where(and(eq(locations.environment, "staging"), eq(locations.attentionReason, ADDRESS_CHANGED_REASON))),
    ).toEqual([]);
  });
});

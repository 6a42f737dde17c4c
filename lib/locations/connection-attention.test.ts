import { and, desc, eq, isNotNull } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { auditLog, locations, sandboxAccessTokens, syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemContext } from "@/lib/operations/context";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { requestSyncSession } from "@/lib/sync/request-session";
import { resumeSession } from "@/lib/sync/session-actions";
import { runSession, type RunSessionOptions } from "@/lib/sync/run-session";
import { isSessionAttentionReason } from "@/lib/sync/session-attention";
import { sampleNow, sampleSourceRows } from "@/lib/sync/testing/sample-source";
import { createConnectedLocation, noWaits, useSyncSandbox } from "@/lib/sync/testing/sync-test-setup";
import { connectionActors, useSecondAddress } from "./testing/connection-test-setup";
import { connectLocation } from "./connect-location";
import { disconnectLocation } from "./disconnect-location";
import { readLocation } from "./get-location";
import { ADDRESS_CHANGED_REASON } from "./location-token";
import { TOKEN_REFUSED_REASON, testConnection } from "./test-connection";

// A failed sync's attention ("… Resume it or close the upstream session.") must outlive connection actions: they set
// and clear only connection problems (lib/locations/connection-attention.ts).
const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
const { admin, support, pointStagingAt } = connectionActors(db, setup);
const second = useSecondAddress(setup.sandbox.apiBaseUrl);
afterEach(async () => {
  await clearFaults(db);
  await pointStagingAt(setup.sandbox.apiBaseUrl, { tokensMoveToNewAddress: true });
});

const options: RunSessionOptions = {
  reader: createArraySourceReader(sampleSourceRows()),
  now: sampleNow,
  client: noWaits,
  config: { stepBackoffMs: 0, stepAttempts: 1 },
};

const shown = async (locationId: string) => readLocation({ db, actor: support() }, { locationId });

/** A connected location whose last sync failed part-way, leaving the upstream session open. */
async function locationWithFailedSession() {
  const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
  await injectFault(db, { target: "contact_details", mode: { kind: "status", status: 404 }, count: 1 });
  const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
  expect(await runSession(systemContext(db), { sessionId: requested.sessionId!, ...options })).toBe("failed");
  await clearFaults(db);
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
  expect(session!.upstreamOpen).toBe(true);
  const attention = (await shown(location.id)).attentionReason;
  expect(attention).toMatch(/^The last sync failed at contact_details: .*Resume it or close the upstream session\.$/);
  expect(isSessionAttentionReason(attention)).toBe(true);
  return { location, attention: attention!, sessionId: requested.sessionId! };
}

describe("a failed sync's attention survives connection actions", () => {
  it("a successful Test connection keeps it", async () => {
    const { location, attention } = await locationWithFailedSession();
    const check = await testConnection({ db, actor: support() }, { locationId: location.id });
    expect(check).toMatchObject({ ok: true, location: { attentionReason: attention, lastCheckOk: true } });
  });

  it("a refused Test connection keeps it; the refusal shows as the last check", async () => {
    const { location, attention } = await locationWithFailedSession();
    await db.update(sandboxAccessTokens).set({ revokedAt: new Date() }).where(eq(sandboxAccessTokens.locationId, location.upstreamLocationId));
    const check = await testConnection({ db, actor: support() }, { locationId: location.id });
    expect(check).toMatchObject({ ok: false, message: TOKEN_REFUSED_REASON, location: { attentionReason: attention, lastCheckOk: false } });
  });

  it("a reconnect keeps it", async () => {
    const { location, attention } = await locationWithFailedSession();
    const view = await connectLocation(
      { db, actor: support(), upstreamClient: noWaits },
      { locationId: location.id, email: setup.fixture.owner.email, password: setup.fixture.owner.password },
    );
    expect(view).toMatchObject({ connected: true, attentionReason: attention, lastCheckOk: true });
  });

  it("a disconnect keeps it", async () => {
    const { location, attention } = await locationWithFailedSession();
    const view = await disconnectLocation({ db, actor: support() }, { locationId: location.id });
    expect(view).toMatchObject({ connected: false, attentionReason: attention });
  });

  it("a base URL mistyped and corrected a minute later keeps it; the location still counts as needing reconnection meanwhile", async () => {
    const { location, attention } = await locationWithFailedSession();
    await pointStagingAt(second().url); // another origin, not confirmed as a move of the service
    expect((await shown(location.id)).attentionReason).toBe(attention);
    // The admin is told every connected location needs reconnecting, this one included.
    const connected = await db.$count(locations, and(eq(locations.environment, "staging"), isNotNull(locations.locationTokenEncrypted)));
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.actorEmail, admin.email!)).orderBy(desc(auditLog.id)).limit(1);
    expect(audit!.details).toMatchObject({ locationsNeedingReconnect: connected });
    // Test connection says what is wrong, in its answer and the last check, without sending the token anywhere.
    const check = await testConnection({ db, actor: support() }, { locationId: location.id });
    expect(check).toMatchObject({ ok: false, message: ADDRESS_CHANGED_REASON, location: { attentionReason: attention, lastCheckOk: false } });
    expect(second().exchanges).toEqual([]);

    await pointStagingAt(setup.sandbox.apiBaseUrl); // corrected
    expect((await shown(location.id)).attentionReason).toBe(attention);
  });

  it("a resume refused for the changed address keeps saying the upstream session is open", async () => {
    const { location, sessionId } = await locationWithFailedSession();
    await pointStagingAt(second().url);
    const resumed = await resumeSession({ db, actor: support() }, { sessionId });
    expect(await runSession(systemContext(db), { sessionId: resumed.sessionId, ...options })).toBe("failed");
    const attention = (await shown(location.id)).attentionReason;
    expect(attention).toContain(ADDRESS_CHANGED_REASON);
    expect(attention).toMatch(/Resume it or close the upstream session\.$/);
    expect(second().exchanges).toEqual([]);
  });
});

describe("connection problems without a sync's attention", () => {
  it("a refused token needs attention, and a successful check clears it", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const tokens = eq(sandboxAccessTokens.locationId, location.upstreamLocationId);
    await db.update(sandboxAccessTokens).set({ revokedAt: new Date() }).where(tokens);
    expect(await testConnection({ db, actor: support() }, { locationId: location.id })).toMatchObject({
      ok: false,
      location: { attentionReason: TOKEN_REFUSED_REASON },
    });
    await db.update(sandboxAccessTokens).set({ revokedAt: null }).where(tokens);
    expect(await testConnection({ db, actor: support() }, { locationId: location.id })).toMatchObject({
      ok: true,
      location: { attentionReason: null, attentionSince: null },
    });
  });

  it("a changed address needs attention until it is changed back", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await pointStagingAt(second().url);
    expect((await shown(location.id)).attentionReason).toBe(ADDRESS_CHANGED_REASON);
    await pointStagingAt(setup.sandbox.apiBaseUrl);
    expect((await shown(location.id)).attentionReason).toBeNull();
  });
});

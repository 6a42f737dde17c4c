import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { locations, sandboxLocations, syncSessions, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { pointEnvironmentAtSandbox } from "@/lib/environments/point-at-sandbox";
import { connectLocation } from "@/lib/locations/connect-location";
import { disconnectLocation } from "@/lib/locations/disconnect-location";
import { moveLocationEnvironment } from "@/lib/locations/move-location-environment";
import { updateLocation } from "@/lib/locations/update-location";
import { systemContext } from "@/lib/operations/context";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { createSandboxLocation } from "@/lib/sandbox/provision";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { closeUpstreamSession } from "./close-upstream-session";
import { requestSyncSession } from "./request-session";
import { runSession, type RunSessionOptions } from "./run-session";
import { sampleNow, sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, noWaits, sandboxRequests, useSyncSandbox } from "./testing/sync-test-setup";

const { db } = await useTestDatabase();
const setup = await useSyncSandbox(db);
const admin = systemActorAs("admin@example.test");
let address = 0;
const support = () => systemActorAs("support@example.test", `203.0.113.${++address}`);
const options = (): RunSessionOptions => ({
  reader: createArraySourceReader(sampleSourceRows()),
  now: sampleNow,
  client: noWaits,
  config: { stepBackoffMs: 0, stepAttempts: 1 },
});

await pointEnvironmentAtSandbox(
  { db, actor: admin },
  { name: "production", apiBaseUrl: setup.sandbox.apiBaseUrl, uploadOrigin: setup.sandbox.uploadOrigin, credentials: setup.fixture },
);

/** A connected staging location whose session failed at contact details, leaving its upstream session open. */
async function failedLeavingUpstreamOpen() {
  const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
  await injectFault(db, { target: "contact_details", mode: { kind: "status", status: 404 }, count: 1 });
  const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
  expect(await runSession(systemContext(db), { sessionId: requested.sessionId!, ...options() })).toBe("failed");
  await clearFaults(db);
  return { location, oldSessionId: requested.sessionId! };
}

const connect = (locationId: string) =>
  connectLocation(
    { db, actor: support(), upstreamClient: noWaits },
    { locationId, email: setup.fixture.owner.email, password: setup.fixture.owner.password },
  );

const close = (sessionId: string) => closeUpstreamSession({ db, actor: support(), upstreamClient: noWaits }, { sessionId });

async function syncNow(locationId: string) {
  const requested = await requestSyncSession(systemContext(db), { locationId, trigger: "manual", requestedByEmail: null });
  const result = await runSession(systemContext(db), { sessionId: requested.sessionId!, ...options() });
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
  const steps = await db.select().from(syncSteps).where(eq(syncSteps.sessionId, requested.sessionId!));
  return { result, openStep: steps.find((step) => step.name === "open")!.status, error: session!.error };
}

async function inSyncUpstream(upstreamLocationId: string): Promise<boolean> {
  const [row] = await db.select().from(sandboxLocations).where(eq(sandboxLocations.id, upstreamLocationId));
  return row!.syncInProgress;
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => "done",
    (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
  );

it("a move is refused while a session left the upstream session open; once closed, the first session in production opens its own", async () => {
  const { location, oldSessionId } = await failedLeavingUpstreamOpen();
  const productionId = await createSandboxLocation(db, { ownerId: setup.fixture.owner.id });
  const move = () =>
    moveLocationEnvironment({ db, actor: support() }, { locationId: location.id, environment: "production", upstreamLocationId: productionId });

  expect(await refusal(move())).toMatch(
    new RegExp(`^CONFLICT: Sync session ${oldSessionId} left the upstream session open .*close its upstream session`),
  );
  const [unmoved] = await db.select().from(locations).where(eq(locations.id, location.id));
  expect({ environment: unmoved!.environment, connected: unmoved!.locationTokenEncrypted !== null }).toEqual({
    environment: "staging",
    connected: true,
  });

  await close(oldSessionId);
  expect(await inSyncUpstream(location.upstreamLocationId)).toBe(false);
  await move();
  await connect(location.id);
  expect(await syncNow(location.id)).toEqual({ result: "succeeded", openStep: "succeeded", error: null });
  const sent = (await sandboxRequests(db, productionId)).filter((request) => !request.includes("access_tokens") && !request.startsWith("GET"));
  expect(sent[0]).toMatch(/^PUT .*update_management_system 2\d\d$/);
});

it("a disconnected location's upstream location ID cannot change while a session left the upstream session open there", async () => {
  const { location, oldSessionId } = await failedLeavingUpstreamOpen();
  await disconnectLocation({ db, actor: support() }, { locationId: location.id });
  const otherId = await createSandboxLocation(db, { ownerId: setup.fixture.owner.id });
  const repoint = () => updateLocation({ db, actor: support() }, { locationId: location.id, upstreamLocationId: otherId });

  expect(await refusal(repoint())).toMatch(
    /^CONFLICT: .*left the upstream session open .*Resume that session or close its upstream session \(the location connected\) first/,
  );
  expect(await inSyncUpstream(location.upstreamLocationId)).toBe(true);

  await connect(location.id);
  await close(oldSessionId);
  await disconnectLocation({ db, actor: support() }, { locationId: location.id });
  await repoint();
  await connect(location.id);
  expect(await syncNow(location.id)).toEqual({ result: "succeeded", openStep: "succeeded", error: null });
  expect(await inSyncUpstream(location.upstreamLocationId)).toBe(false);
});

/**
 * A session left open at staging, then the location moved to production and connected there: as a move did before it
 * checked for an open upstream session (and as migration 0040 backfills such rows).
 */
async function movedWithSessionLeftOpen() {
  const failed = await failedLeavingUpstreamOpen();
  const productionId = await createSandboxLocation(db, { ownerId: setup.fixture.owner.id });
  await db
    .update(locations)
    .set({ environment: "production", upstreamLocationId: productionId, locationTokenEncrypted: null })
    .where(eq(locations.id, failed.location.id));
  await connect(failed.location.id);
  return failed;
}

it("a session left open at staging before a move (an old row) is not inherited by the first session in production", async () => {
  const { location, oldSessionId } = await movedWithSessionLeftOpen();

  expect(await syncNow(location.id)).toEqual({ result: "succeeded", openStep: "succeeded", error: null });
  const [old] = await db.select().from(syncSessions).where(eq(syncSessions.id, oldSessionId));
  // Still open at staging: only a close there ends it, not a session in production.
  expect({ oldStillOpen: old!.upstreamOpen, stagingInSync: await inSyncUpstream(location.upstreamLocationId) }).toEqual({
    oldStillOpen: true,
    stagingInSync: true,
  });
});

it("a later session at the same upstream location still takes the open upstream session over", async () => {
  const { location, oldSessionId } = await failedLeavingUpstreamOpen();
  expect(await syncNow(location.id)).toEqual({ result: "succeeded", openStep: "skipped", error: null });
  const [old] = await db.select().from(syncSessions).where(eq(syncSessions.id, oldSessionId));
  expect({ oldStillOpen: old!.upstreamOpen, inSync: await inSyncUpstream(location.upstreamLocationId) }).toEqual({
    oldStillOpen: false,
    inSync: false,
  });
});

it("an upstream session left open at another upstream location (a session from before a move) is not one a later failure asks to close", async () => {
  const { location, oldSessionId } = await movedWithSessionLeftOpen();
  // It cannot be closed from here (by design) ...
  await expect(close(oldSessionId)).rejects.toThrow(/cannot be closed from here/);
  // ... and a production session that fails at "open" (nothing open in production) is told to close an upstream session.
  await injectFault(db, { target: "update_management_system", mode: { kind: "status", status: 503 }, count: 1000 });
  const second = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
  expect(await runSession(systemContext(db), { sessionId: second.sessionId!, ...options() })).toBe("failed");
  await clearFaults(db);
  const [secondRow] = await db.select().from(syncSessions).where(eq(syncSessions.id, second.sessionId!));
  expect(secondRow!.upstreamOpen).toBe(false);
  const [row] = await db.select().from(locations).where(eq(locations.id, location.id));
  expect(row!.attentionReason).toMatch(/^The last sync failed at open: .* Resume it\.$/);
});

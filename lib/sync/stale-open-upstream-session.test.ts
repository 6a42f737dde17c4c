import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { locations, syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { pointEnvironmentAtSandbox } from "@/lib/environments/point-at-sandbox";
import { connectLocation } from "@/lib/locations/connect-location";
import { systemContext } from "@/lib/operations/context";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { createSandboxLocation } from "@/lib/sandbox/provision";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { closeUpstreamSession } from "./close-upstream-session";
import { requestSyncSession } from "./request-session";
import { runSession, type RunSessionOptions } from "./run-session";
import { sampleNow, sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, noWaits, useSyncSandbox } from "./testing/sync-test-setup";

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

it("an upstream session left open at another upstream location (a session from before a move) is not one a later failure asks to close", async () => {
  const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
  await injectFault(db, { target: "contact_details", mode: { kind: "status", status: 404 }, count: 1 });
  const first = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
  expect(await runSession(systemContext(db), { sessionId: first.sessionId!, ...options() })).toBe("failed");
  await clearFaults(db);
  // As before today (and as migration 0040 backfills it): the location moved to production meanwhile, the old session
  // still open at its staging upstream location.
  const productionId = await createSandboxLocation(db, { ownerId: setup.fixture.owner.id });
  await db
    .update(locations)
    .set({ environment: "production", upstreamLocationId: productionId, locationTokenEncrypted: null })
    .where(eq(locations.id, location.id));
  await connectLocation(
    { db, actor: support(), upstreamClient: noWaits },
    { locationId: location.id, email: setup.fixture.owner.email, password: setup.fixture.owner.password },
  );
  // It cannot be closed from here (by design) ...
  await expect(closeUpstreamSession({ db, actor: support(), upstreamClient: noWaits }, { sessionId: first.sessionId! })).rejects.toThrow(
    /cannot be closed from here/,
  );
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

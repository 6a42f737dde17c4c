import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { locations, sandboxLocations, syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { connectLocation } from "@/lib/locations/connect-location";
import { disconnectLocation } from "@/lib/locations/disconnect-location";
import { createSandboxLocation } from "@/lib/sandbox/provision";
import { closeUpstreamSession } from "./close-upstream-session";
import { createConnectedLocation, noWaits, runManualTestSync, sandboxRequests, useSyncSandbox } from "./testing/sync-test-setup";
import { sampleSourceRows } from "./testing/sample-source";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";

const { db } = await useTestDatabase();
const setup = await useSyncSandbox(db);
let address = 0;
const support = () => systemActorAs("support@example.test", `203.0.113.${++address}`);

it("refuses to close a session's upstream session at the location's new upstream location (a re-point from before that was refused)", async () => {
  const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
  await injectFault(db, { target: "contact_details", mode: { kind: "status", status: 404 }, count: 1 });
  const { id: sessionId } = await runManualTestSync(db, location.id, sampleSourceRows(), { expect: "failed", config: { stepAttempts: 1 } });
  await clearFaults(db);
  await disconnectLocation({ db, actor: support() }, { locationId: location.id });
  // As a change of upstream location ID did while the upstream session was open, before it was refused.
  const otherId = await createSandboxLocation(db, { ownerId: setup.fixture.owner.id });
  await db.update(locations).set({ upstreamLocationId: otherId }).where(eq(locations.id, location.id));
  await connectLocation(
    { db, actor: support(), upstreamClient: noWaits },
    { locationId: location.id, email: setup.fixture.owner.email, password: setup.fixture.owner.password },
  );

  await expect(closeUpstreamSession({ db, actor: support(), upstreamClient: noWaits }, { sessionId })).rejects.toThrow(
    `This session's upstream session is open at upstream location “${location.upstreamLocationId}” (staging), and the location now syncs to “${otherId}” (staging): its token is for that one, so this session's upstream session cannot be closed from here.`,
  );
  const [oldUpstream] = await db.select().from(sandboxLocations).where(eq(sandboxLocations.id, location.upstreamLocationId));
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
  expect({
    sentToNewUpstream: (await sandboxRequests(db, otherId)).filter((request) => request.includes("update_management_system")),
    oldUpstreamInSync: oldUpstream!.syncInProgress,
    sessionStillOpen: session!.upstreamOpen,
  }).toEqual({ sentToNewUpstream: [], oldUpstreamInSync: true, sessionStillOpen: true });
});

import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { locations, sandboxLocations } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { pointEnvironmentAtSandbox } from "@/lib/environments/point-at-sandbox";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { createSandboxLocation } from "@/lib/sandbox/provision";
import { closeUpstreamSession } from "@/lib/sync/close-upstream-session";
import { sampleSourceRows } from "@/lib/sync/testing/sample-source";
import { createConnectedLocation, noWaits, runManualTestSync, useSyncSandbox } from "@/lib/sync/testing/sync-test-setup";
import { archiveLocation, restoreLocation } from "./archive-location";
import { connectLocation } from "./connect-location";
import { deleteLocation } from "./delete-location";
import { readLocation } from "./get-location";
import { moveLocationEnvironment } from "./move-location-environment";

const { db } = await useTestDatabase();
const setup = await useSyncSandbox(db);
const admin = systemActorAs("admin@example.test");
let address = 0;
const support = () => systemActorAs("support@example.test", `203.0.113.${++address}`);

await pointEnvironmentAtSandbox(
  { db, actor: admin },
  { name: "production", apiBaseUrl: setup.sandbox.apiBaseUrl, uploadOrigin: setup.sandbox.uploadOrigin, credentials: setup.fixture },
);

/** A connected location whose session failed at `step` (contact details: the upstream session is left open). */
async function failedAt(target: "contact_details" | "update_management_system", name = `Salon ${Math.random()}`) {
  const location = await createConnectedLocation(db, setup, { sourceKey: "array", name });
  await injectFault(db, { target, mode: { kind: "status", status: 404 }, count: 1 });
  const session = await runManualTestSync(db, location.id, sampleSourceRows(), { expect: "failed", config: { stepAttempts: 1 } });
  await clearFaults(db);
  return { location, sessionId: session.id };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => "done",
    (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
  );
const attentionOf = async (locationId: string) => (await readLocation({ db, actor: admin }, { locationId })).attentionReason;
async function upstreamInSync(upstreamLocationId: string) {
  const [row] = await db.select().from(sandboxLocations).where(eq(sandboxLocations.id, upstreamLocationId));
  return row!.syncInProgress;
}
const close = (sessionId: string) => closeUpstreamSession({ db, actor: support(), upstreamClient: noWaits }, { sessionId });
const connect = (locationId: string) =>
  connectLocation(
    { db, actor: support(), upstreamClient: noWaits },
    { locationId, email: setup.fixture.owner.email, password: setup.fixture.owner.password },
  );

it("archive is refused while a session left the upstream session open, keeping the token and the attention; once closed, archive and delete go ahead", async () => {
  const { location, sessionId } = await failedAt("contact_details", "Salon Open");

  expect(await refusal(archiveLocation({ db, actor: admin }, { locationId: location.id }))).toBe(
    `CONFLICT: Sync session ${sessionId} left the upstream session open at upstream location “${location.upstreamLocationId}” (staging), ` +
      "which sends no campaigns until it is closed. Resume that session or close its upstream session (the location connected) first, then archive it.",
  );
  const [row] = await db.select().from(locations).where(eq(locations.id, location.id));
  expect({ archived: row!.archivedAt !== null, connected: row!.locationTokenEncrypted !== null, attention: row!.attentionReason }).toEqual({
    archived: false,
    connected: true,
    attention: expect.stringMatching(/Resume it or close the upstream session\.$/),
  });

  await close(sessionId);
  await archiveLocation({ db, actor: admin }, { locationId: location.id });
  await deleteLocation({ db, actor: admin }, { locationId: location.id, confirmName: "Salon Open" });
  expect(await upstreamInSync(location.upstreamLocationId)).toBe(false);
});

it("delete is refused for an archived location whose session left the upstream session open (archived before archive refused it)", async () => {
  const { location, sessionId } = await failedAt("contact_details", "Salon Archived Open");
  // As an archive did while the upstream session was open, before it was refused.
  await db.update(locations).set({ archivedAt: new Date(), locationTokenEncrypted: null }).where(eq(locations.id, location.id));
  const remove = () => deleteLocation({ db, actor: admin }, { locationId: location.id, confirmName: "Salon Archived Open" });

  expect(await refusal(remove())).toMatch(
    /^CONFLICT: Sync session .* left the upstream session open .*Restore and connect the location, resume that session or close its upstream session first, then delete it\.$/,
  );
  expect(await upstreamInSync(location.upstreamLocationId)).toBe(true);

  await restoreLocation({ db, actor: admin }, { locationId: location.id });
  await connect(location.id);
  await close(sessionId);
  await archiveLocation({ db, actor: admin }, { locationId: location.id });
  expect(await refusal(remove())).toBe("done");
  expect(await upstreamInSync(location.upstreamLocationId)).toBe(false);
});

it("archive and move keep a sync session's attention reason (a connection problem's goes)", async () => {
  const archived = await failedAt("update_management_system");
  const reason = await attentionOf(archived.location.id);
  expect(reason).toMatch(/^The last sync failed at open: .* Resume it\.$/);
  await archiveLocation({ db, actor: admin }, { locationId: archived.location.id });
  expect(await attentionOf(archived.location.id)).toBe(reason);

  const moved = await failedAt("update_management_system");
  const productionId = await createSandboxLocation(db, { ownerId: setup.fixture.owner.id });
  await moveLocationEnvironment(
    { db, actor: support() },
    { locationId: moved.location.id, environment: "production", upstreamLocationId: productionId },
  );
  expect(await attentionOf(moved.location.id)).toMatch(/^The last sync failed at open: /);

  const refused = await createConnectedLocation(db, setup);
  await db
    .update(locations)
    .set({ attentionReason: "The Marketing Automation Service refused this location's token." })
    .where(eq(locations.id, refused.id));
  await archiveLocation({ db, actor: admin }, { locationId: refused.id });
  expect(await attentionOf(refused.id)).toBeNull();
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, locationMembers, locations, syncedRecords, syncSessions, unsyncedKeys, users } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import type { OperationActor } from "@/lib/auth/permissions";
import type { Role } from "@/lib/auth/roles";
import { FleetMatrixQuery } from "@/lib/fleet/fleet-inputs";
import { loadFleetMatrix } from "@/lib/fleet/fleet-matrix";
import { setSchedulePaused } from "@/lib/fleet/schedule-pause";
import { requestPreview } from "@/lib/preview/request-preview";
import { findDueLocations } from "@/lib/sync/schedule/due-locations";
import { archiveLocation, restoreLocation } from "./archive-location";
import { createLocation } from "./create-location";
import { deleteLocation } from "./delete-location";
import { inviteLocationOwner } from "./invite-location-owner";
import { listLocations } from "./list-locations";
import { acceptInvite } from "@/lib/users/accept-invite";
import { LocationInput, LocationListQuery } from "./location-inputs";
import { moveLocationEnvironment } from "./move-location-environment";
import { updateLocation } from "./update-location";

const { db } = await useTestDatabase();
let sequence = 0;

async function person(role: Role): Promise<OperationActor & { id: string; role: Role }> {
  sequence += 1;
  const email = `${role}${sequence}@example.test`;
  const [user] = await db.insert(users).values({ email, role }).returning({ id: users.id, role: users.role });
  return { ...user!, email };
}

const support = await person("support");
const admin = await person("admin");

/** A connected location (a sealed-token stand-in: these operations only delete it) with one synced record, one unsynced key and a finished session. */
async function connectedLocation(name = `Salon ${++sequence}`) {
  const created = await createLocation(
    { db, actor: support },
    LocationInput.parse({
      name,
      timeZone: "UTC",
      country: "DE",
      environment: "staging",
      upstreamLocationId: `up-${sequence}`,
      sourceKey: "s",
      syncTime: "09:00",
    }),
  );
  await db
    .update(locations)
    .set({ locationTokenEncrypted: "sealed", connectedAt: new Date(), upstreamAccountEmail: "o@x.test" })
    .where(eq(locations.id, created.id));
  await db.insert(syncedRecords).values({ locationId: created.id, recordType: "customers", recordKey: "c1", contentHash: "h" });
  await db.insert(unsyncedKeys).values({ locationId: created.id, recordType: "contact_details", recordKey: "c1" });
  await db.insert(syncSessions).values({ locationId: created.id, environment: "staging", trigger: "manual", optionalSteps: [], status: "succeeded" });
  return created;
}

const openSession = (locationId: string) =>
  db.insert(syncSessions).values({ locationId, environment: "staging", trigger: "manual", optionalSteps: [], status: "running" }).returning();

const listNames = async (status?: string) =>
  (await listLocations({ db, actor: support }, LocationListQuery.parse(status ? { status } : {}))).items.map((item) => item.name);

describe("archive and restore (support)", () => {
  it("archiving deletes the token, takes the location off the schedule and the default list, keeps its history; restoring brings it back disconnected", async () => {
    const location = await connectedLocation();
    const noon = new Date("2026-06-01T12:00:00Z");
    expect((await findDueLocations(db, noon)).map((due) => due.locationId)).toContain(location.id);

    const archived = await archiveLocation({ db, actor: support }, { locationId: location.id });
    expect(archived).toMatchObject({ connected: false, upstreamAccountEmail: null, archivedByEmail: support.email });
    expect(archived.archivedAt).toBeInstanceOf(Date);
    const [row] = await db.select().from(locations).where(eq(locations.id, location.id));
    expect(row!.locationTokenEncrypted).toBeNull();
    expect((await findDueLocations(db, noon)).map((due) => due.locationId)).not.toContain(location.id);
    expect(await listNames()).not.toContain(location.name);
    expect(await listNames("archived")).toEqual([location.name]);
    const fleet = await loadFleetMatrix({ db, actor: support }, FleetMatrixQuery.parse({ limit: 200 }));
    expect(fleet.rows.map((row) => row.locationId)).not.toContain(location.id);
    expect(await db.select().from(syncSessions).where(eq(syncSessions.locationId, location.id))).toHaveLength(1);
    // Read-only: no edit, no connect while archived.
    await expect(updateLocation({ db, actor: support }, { locationId: location.id, name: "Renamed" })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      inviteLocationOwner({ db, actor: support }, { locationId: location.id, email: "late@example.test", name: "" }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
    });

    // Neither through the operations the page no longer offers: a schedule pause, a preview run.
    await expect(setSchedulePaused({ db, actor: support }, { locationId: location.id, paused: true, reason: "busy" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    for (const rebuild of [false, true])
      await expect(requestPreview({ db, actor: support }, { locationId: location.id, rebuild })).rejects.toMatchObject({ code: "CONFLICT" });

    const restored = await restoreLocation({ db, actor: support }, { locationId: location.id });
    expect(restored).toMatchObject({ archivedAt: null, connected: false });
    expect(await listNames()).toContain(location.name);
    const actions = (await db.select().from(auditLog).where(eq(auditLog.targetId, location.id))).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(["location.archived", "location.restored"]));
  });

  it("refuses to archive while a session runs, with a 409 naming it", async () => {
    const location = await connectedLocation();
    const [session] = await openSession(location.id);
    await expect(archiveLocation({ db, actor: support }, { locationId: location.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(session!.id),
    });
    const [row] = await db.select().from(locations).where(eq(locations.id, location.id));
    expect(row).toMatchObject({ archivedAt: null, locationTokenEncrypted: "sealed" });
  });

  it("an owner may not archive their own location", async () => {
    const location = await connectedLocation();
    const owner = await person("owner");
    await db.insert(locationMembers).values({ locationId: location.id, userId: owner.id });
    await expect(archiveLocation({ db, actor: owner }, { locationId: location.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("delete for good (admin)", () => {
  it("after the typed name, removes the location, its sessions, records and token; the audit entry stays", async () => {
    const location = await connectedLocation("Salon Königsallee");
    await archiveLocation({ db, actor: support }, { locationId: location.id });
    await expect(deleteLocation({ db, actor: support }, { locationId: location.id, confirmName: location.name })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(deleteLocation({ db, actor: admin }, { locationId: location.id, confirmName: "Salon" })).rejects.toMatchObject({
      code: "INVALID",
      fields: [{ field: "confirmName", reason: "does not match the location's name" }],
    });

    const result = await deleteLocation({ db, actor: admin }, { locationId: location.id, confirmName: "Salon Königsallee" });
    expect(result.deleted).toMatchObject({ name: "Salon Königsallee", sessions: 1, syncedRecords: 1 });
    expect(await db.select().from(locations).where(eq(locations.id, location.id))).toEqual([]);
    expect(await db.select().from(syncSessions).where(eq(syncSessions.locationId, location.id))).toEqual([]);
    expect(await db.select().from(syncedRecords).where(eq(syncedRecords.locationId, location.id))).toEqual([]);
    expect(await db.select().from(unsyncedKeys).where(eq(unsyncedKeys.locationId, location.id))).toEqual([]);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "location.deleted"));
    expect(entry).toMatchObject({ targetId: location.id, targetLabel: "Salon Königsallee", actorEmail: admin.email });
  });

  it("an owner's unused invitation for the deleted location still sets their password for their other locations", async () => {
    const first = await connectedLocation();
    const second = await connectedLocation();
    const email = `pending-${++sequence}@example.test`;
    await inviteLocationOwner({ db, actor: support }, { locationId: second.id, email, name: "" });
    // Invited again for the first before accepting: a member of the second, the link now for the first.
    const invitation = await inviteLocationOwner({ db, actor: support }, { locationId: first.id, email, name: "" });
    await archiveLocation({ db, actor: support }, { locationId: first.id });
    await deleteLocation({ db, actor: admin }, { locationId: first.id, confirmName: first.name });
    const token = invitation.kind === "invite" ? invitation.path.split("/").at(-1)! : "";
    const accepted = await acceptInvite({ db }, { token, password: "the owner's long password", clientAddress: "x" });
    expect(accepted).toMatchObject({ passwordSet: true, locationId: null });
    const memberships = await db.select().from(locationMembers).where(eq(locationMembers.userId, accepted.userId));
    expect(memberships.map((membership) => membership.locationId)).toEqual([second.id]);
  });

  it("refuses a location that is not archived, and one whose session runs", async () => {
    const location = await connectedLocation();
    await expect(deleteLocation({ db, actor: admin }, { locationId: location.id, confirmName: location.name })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await archiveLocation({ db, actor: support }, { locationId: location.id });
    await openSession(location.id);
    await expect(deleteLocation({ db, actor: admin }, { locationId: location.id, confirmName: location.name })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("running"),
    });
    expect(await db.select().from(locations).where(eq(locations.id, location.id))).toHaveLength(1);
  });
});

describe("move from staging to production (support)", () => {
  it("changes the environment and upstream ID, drops the token and what staging accepted; the next session is full", async () => {
    const location = await connectedLocation();
    const moved = await moveLocationEnvironment(
      { db, actor: support },
      { locationId: location.id, environment: "production", upstreamLocationId: "prod-1" },
    );
    expect(moved).toMatchObject({ environment: "production", upstreamLocationId: "prod-1", connected: false, fullSyncReason: "Moved to production" });
    expect(await db.select().from(syncedRecords).where(eq(syncedRecords.locationId, location.id))).toEqual([]);
    await expect(moveLocationEnvironment({ db, actor: support }, { locationId: location.id, environment: "production" })).rejects.toMatchObject({
      code: "INVALID",
    });
  });

  it("an edit of a disconnected location's environment or upstream ID forgets what the old upstream accepted, as a move does", async () => {
    for (const change of [{ environment: "production" as const }, { upstreamLocationId: `edited-${++sequence}` }]) {
      const location = await connectedLocation();
      await db.update(locations).set({ locationTokenEncrypted: null }).where(eq(locations.id, location.id));
      const edited = await updateLocation({ db, actor: support }, { locationId: location.id, ...change });
      expect(edited.fullSyncReason).not.toBeNull();
      expect(await db.select().from(syncedRecords).where(eq(syncedRecords.locationId, location.id))).toEqual([]);
    }
  });

  it("refuses an upstream ID another production location holds, and a move while a session runs", async () => {
    const holder = await connectedLocation();
    await moveLocationEnvironment({ db, actor: support }, { locationId: holder.id, environment: "production", upstreamLocationId: "prod-taken" });
    const other = await connectedLocation();
    await expect(
      moveLocationEnvironment({ db, actor: support }, { locationId: other.id, environment: "production", upstreamLocationId: "prod-taken" }),
    ).rejects.toMatchObject({ code: "CONFLICT", fields: [{ field: "upstreamLocationId" }] });
    await openSession(other.id);
    await expect(
      moveLocationEnvironment({ db, actor: support }, { locationId: other.id, environment: "production", upstreamLocationId: "prod-free" }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
    });
    const [row] = await db.select().from(locations).where(eq(locations.id, other.id));
    expect(row).toMatchObject({ environment: "staging", locationTokenEncrypted: "sealed" });
  });
});

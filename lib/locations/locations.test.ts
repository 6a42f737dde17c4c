import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, locationMembers, locations, syncedRecords, syncSessions, syncSteps, users } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs, type UserActor } from "@/lib/auth/permissions";
import type { Role } from "@/lib/auth/roles";
import { DomainError } from "@/lib/errors/domain-error";
import { createLocation } from "./create-location";
import { readLocation } from "./get-location";
import { listLocations, type LocationViewer } from "./list-locations";
import { LocationInput, LocationListQuery } from "./location-inputs";
import { DISCONNECT_FIRST, SOURCE_KEY_CHANGED, updateLocation } from "./update-location";

const testDb = await useTestDatabase();
const db = testDb.db;
const actor = systemActorAs("support@example.test", "test");
let sequence = 0;

function locationInput(overrides: Partial<Record<keyof LocationInput, unknown>> = {}): LocationInput {
  sequence += 1;
  return LocationInput.parse({
    name: `Location ${sequence}`,
    timeZone: "Europe/Berlin",
    country: "DE",
    environment: "staging",
    upstreamLocationId: `upstream-${sequence}`,
    sourceKey: `source-${sequence}`,
    ...overrides,
  });
}

async function createUser(role: Role): Promise<UserActor> {
  sequence += 1;
  const [user] = await db
    .insert(users)
    .values({ email: `user${sequence}@example.test`, role })
    .returning({ id: users.id, role: users.role });
  return user!;
}

async function auditEntriesOf(locationId: string) {
  return db.select().from(auditLog).where(eq(auditLog.targetId, locationId)).orderBy(auditLog.id);
}

async function caught(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

const markConnected = (id: string) => db.update(locations).set({ locationTokenEncrypted: "v1.sealed-token-stand-in" }).where(eq(locations.id, id));

describe("createLocation", () => {
  it("stores the location, returns its token-free view and records location.created", async () => {
    const input = locationInput({ name: "Salon Created", automotive: true, syncTime: "09:30" });
    const view = await createLocation({ db, actor }, input);
    expect(view).toMatchObject({ ...input, connected: false });
    expect(view).not.toHaveProperty("locationTokenEncrypted");
    const [entry] = await auditEntriesOf(view.id);
    expect(entry).toMatchObject({
      action: "location.created",
      actorEmail: "support@example.test",
      targetType: "location",
      targetLabel: "Salon Created",
      details: { name: "Salon Created", environment: "staging", upstreamLocationId: input.upstreamLocationId, automotive: true, syncTime: "09:30" },
    });
  });

  it("refuses an upstream location ID already used in the same environment, naming the location that has it", async () => {
    const first = await createLocation({ db, actor }, locationInput({ name: "Original Holder", upstreamLocationId: "shared-upstream-id" }));
    const error = await caught(createLocation({ db, actor }, locationInput({ upstreamLocationId: "shared-upstream-id" })));
    expect(error.code).toBe("CONFLICT");
    expect(error.fields).toEqual([{ field: "upstreamLocationId", reason: "is already used by location Original Holder" }]);
    const sameIdInProduction = await createLocation(
      { db, actor },
      locationInput({ upstreamLocationId: "shared-upstream-id", environment: "production" }),
    );
    expect(sameIdInProduction.id).not.toBe(first.id);
  });

  it("turns a concurrent duplicate, caught by the unique index, into the same conflict", async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, () => createLocation({ db, actor }, locationInput({ upstreamLocationId: "raced-id" }))),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === "rejected") expect(outcome.reason).toMatchObject({ code: "CONFLICT", fields: [{ field: "upstreamLocationId" }] });
    }
  });
});

describe("updateLocation", () => {
  it("changes only the given fields and audits each change with from and to", async () => {
    const created = await createLocation({ db, actor }, locationInput({ name: "Before Rename", automotive: true, syncTime: "11:00" }));
    const updated = await updateLocation({ db, actor }, { locationId: created.id, name: "After Rename", syncTime: "12:15", country: "DE" });
    expect(updated).toMatchObject({ name: "After Rename", syncTime: "12:15", automotive: true });
    expect(updated.updatedAt.getTime()).toBeGreaterThan(created.updatedAt.getTime());
    const entries = await auditEntriesOf(created.id);
    expect(entries.map((entry) => entry.action)).toEqual(["location.created", "location.updated"]);
    expect(entries[1]!.details).toEqual({
      changed: { name: { from: "Before Rename", to: "After Rename" }, syncTime: { from: "11:00", to: "12:15" } },
    });
  });

  it("writes nothing when nothing changes", async () => {
    const created = await createLocation({ db, actor }, locationInput({ name: "Unchanged" }));
    const result = await updateLocation({ db, actor }, { locationId: created.id, name: "Unchanged", timeZone: created.timeZone });
    expect(result.updatedAt).toEqual(created.updatedAt);
    expect((await auditEntriesOf(created.id)).map((entry) => entry.action)).toEqual(["location.created"]);
  });

  it("refuses an upstream location ID another location holds", async () => {
    await createLocation({ db, actor }, locationInput({ name: "Holder Two", upstreamLocationId: "held-id" }));
    const other = await createLocation({ db, actor }, locationInput());
    const error = await caught(updateLocation({ db, actor }, { locationId: other.id, upstreamLocationId: "held-id" }));
    expect(error.code).toBe("CONFLICT");
    expect(error.fields).toEqual([{ field: "upstreamLocationId", reason: "is already used by location Holder Two" }]);
  });

  it("refuses to move a connected location to another environment or upstream location, but allows other edits", async () => {
    const created = await createLocation({ db, actor }, locationInput());
    await markConnected(created.id);
    for (const change of [{ environment: "production" as const }, { upstreamLocationId: "somewhere-else" }]) {
      const error = await caught(updateLocation({ db, actor }, { ...change, locationId: created.id }));
      expect(error.code).toBe("CONFLICT");
      expect(error.message).toBe(DISCONNECT_FIRST);
      expect(error.fields.map((field) => field.field)).toEqual(Object.keys(change));
    }
    const renamed = await updateLocation({ db, actor }, { locationId: created.id, name: "Connected And Renamed", environment: "staging" });
    expect(renamed).toMatchObject({ name: "Connected And Renamed", connected: true });
    expect(renamed).not.toHaveProperty("locationTokenEncrypted");
  });

  it("makes the next sync session full when the source key changes, and audits the change", async () => {
    const created = await createLocation({ db, actor }, locationInput({ sourceKey: "old-key" }));
    const fullSyncReasonOf = async () =>
      (await db.select({ reason: locations.fullSyncReason }).from(locations).where(eq(locations.id, created.id)))[0]!.reason;
    await updateLocation({ db, actor }, { locationId: created.id, name: "Renamed, same source", sourceKey: "old-key" });
    expect(await fullSyncReasonOf()).toBeNull();
    await updateLocation({ db, actor }, { locationId: created.id, sourceKey: "new-key" });
    expect(await fullSyncReasonOf()).toBe("The source key changed");
    const entries = await auditEntriesOf(created.id);
    expect(entries.at(-1)).toMatchObject({ action: "location.updated", details: { changed: { sourceKey: { from: "old-key", to: "new-key" } } } });
  });

  it("gives a first source key no full-sync reason unless the location has synced before", async () => {
    const [fresh] = await db.insert(locations).values({ name: "No key yet" }).returning();
    await updateLocation({ db, actor }, { locationId: fresh!.id, sourceKey: "first-key" });
    const [freshRow] = await db.select().from(locations).where(eq(locations.id, fresh!.id));
    expect(freshRow).toMatchObject({ sourceKey: "first-key", fullSyncReason: null });

    const [synced] = await db.insert(locations).values({ name: "Synced without key" }).returning();
    await db.insert(syncedRecords).values({ locationId: synced!.id, recordType: "contact_details", recordKey: "c1", contentHash: "h" });
    await updateLocation({ db, actor }, { locationId: synced!.id, sourceKey: "first-key" });
    const [syncedRow] = await db.select().from(locations).where(eq(locations.id, synced!.id));
    expect(syncedRow).toMatchObject({ sourceKey: "first-key", fullSyncReason: SOURCE_KEY_CHANGED });
  });

  it("answers NOT_FOUND for an unknown id", async () => {
    const error = await caught(updateLocation({ db, actor }, { locationId: "00000000-0000-4000-8000-000000000000", name: "Nobody" }));
    expect(error.code).toBe("NOT_FOUND");
  });
});

describe("listLocations", async () => {
  const staff = await createUser("support");
  const owner = await createUser("owner");
  const prefix = "Listed";
  // Names mix case so the order is by lower(name), not byte order.
  const north = await createLocation({ db, actor }, locationInput({ name: `${prefix} north Atelier`, upstreamLocationId: "exact-upstream-77" }));
  const south = await createLocation({ db, actor }, locationInput({ name: `${prefix} South atelier`, environment: "production" }));
  const garage = await createLocation({ db, actor }, locationInput({ name: `${prefix} Garage` }));
  await markConnected(north.id);
  await markConnected(south.id);
  await db.update(locations).set({ attentionReason: "The upstream refused the token." }).where(eq(locations.id, south.id));
  await db.insert(locationMembers).values([
    { locationId: north.id, userId: owner.id },
    { locationId: garage.id, userId: owner.id },
  ]);
  const list = (viewer: LocationViewer, query: Record<string, unknown>) =>
    listLocations({ db, actor: viewer, now: new Date("2026-06-01T06:00:00Z") }, LocationListQuery.parse(query));
  const namesOf = async (viewer: LocationViewer, query: Record<string, unknown>) => (await list(viewer, query)).items.map((item) => item.name);

  it("shows owners only the locations they are members of", async () => {
    expect(await namesOf(owner, {})).toEqual([`${prefix} Garage`, `${prefix} north Atelier`]);
    expect((await list(owner, {})).total).toBe(2);
    const stranger = await createUser("owner");
    expect(await list(stranger, {})).toEqual({ items: [], nextCursor: null, previousCursor: null, total: 0 });
  });

  it("searches a name part case-insensitively, or an exact upstream location ID", async () => {
    expect(await namesOf(staff, { q: "ATELIER" })).toEqual([`${prefix} north Atelier`, `${prefix} South atelier`]);
    expect(await namesOf(staff, { q: "exact-upstream-77" })).toEqual([`${prefix} north Atelier`]);
    expect(await namesOf(staff, { q: "exact-upstream" })).toEqual([]);
    expect(await namesOf(owner, { q: "atelier" })).toEqual([`${prefix} north Atelier`]);
    expect(await namesOf(staff, { q: "%" })).toEqual([]);
  });

  it("shows an owner no operator details, and neither finds nor filters by them for an owner", async () => {
    const [ownItem] = (await list(owner, { q: "north" })).items;
    expect(ownItem).toMatchObject({ name: `${prefix} north Atelier`, timeZone: "Europe/Berlin", syncTime: "10:00" });
    expect(ownItem).not.toHaveProperty("environment");
    expect(ownItem).not.toHaveProperty("upstreamLocationId");
    expect(await namesOf(owner, { q: "exact-upstream-77" })).toEqual([]);
    // The environment filter narrows nothing for an owner (it names what they are not shown).
    expect(await namesOf(owner, { environment: "production" })).toEqual([`${prefix} Garage`, `${prefix} north Atelier`]);
    expect((await list(staff, { q: "north" })).items[0]).toMatchObject({ environment: "staging", upstreamLocationId: "exact-upstream-77" });

    const shown = await readLocation({ db, actor: owner }, { locationId: north.id });
    expect(shown).toMatchObject({ id: north.id, name: `${prefix} north Atelier`, connected: true, timeZone: "Europe/Berlin" });
    for (const field of ["environment", "upstreamLocationId", "country", "sourceKey", "fullSyncReason", "locationTokenOrigin", "connectedByUserId"])
      expect(shown, field).not.toHaveProperty(field);
    expect(await readLocation({ db, actor: staff }, { locationId: north.id })).toMatchObject({
      environment: "staging",
      upstreamLocationId: "exact-upstream-77",
      country: "DE",
      sourceKey: north.sourceKey,
    });
  });

  it("tells an owner when the schedule was paused, but not who paused it or why", async () => {
    const pausedAt = new Date("2026-05-31T09:00:00Z");
    await db
      .update(locations)
      .set({ schedulePausedAt: pausedAt, schedulePausedByEmail: "staff@example.test", schedulePauseReason: "Internal: upstream migration" })
      .where(eq(locations.id, garage.id));
    try {
      const [ownItem] = (await list(owner, { q: "garage" })).items;
      expect(ownItem!.schedulePaused).toEqual({ at: pausedAt });
      const shown = await readLocation({ db, actor: owner }, { locationId: garage.id });
      expect(shown).toMatchObject({ schedulePausedAt: pausedAt });
      expect(shown).not.toHaveProperty("schedulePausedByEmail");
      expect(shown).not.toHaveProperty("schedulePauseReason");
      expect(JSON.stringify([ownItem, shown])).not.toMatch(/staff@example\.test|upstream migration/);

      expect((await list(staff, { q: "garage" })).items[0]!.schedulePaused).toEqual({
        at: pausedAt,
        byEmail: "staff@example.test",
        reason: "Internal: upstream migration",
      });
      expect(await readLocation({ db, actor: staff }, { locationId: garage.id })).toMatchObject({
        schedulePausedByEmail: "staff@example.test",
        schedulePauseReason: "Internal: upstream migration",
      });
    } finally {
      await db
        .update(locations)
        .set({ schedulePausedAt: null, schedulePausedByEmail: null, schedulePauseReason: null })
        .where(eq(locations.id, garage.id));
    }
  });

  it("filters by connection status and environment, and describes each row", async () => {
    const query = { q: prefix };
    expect(await namesOf(staff, { ...query, status: "connected" })).toEqual([`${prefix} north Atelier`]);
    expect(await namesOf(staff, { ...query, status: "not_connected" })).toEqual([`${prefix} Garage`]);
    expect(await namesOf(staff, { ...query, status: "needs_attention" })).toEqual([`${prefix} South atelier`]);
    expect(await namesOf(staff, { ...query, environment: "production" })).toEqual([`${prefix} South atelier`]);
    const { items, total } = await list(staff, query);
    expect(total).toBe(3);
    expect(items.find((item) => item.id === south.id)).toEqual({
      id: south.id,
      name: `${prefix} South atelier`,
      environment: "production",
      upstreamLocationId: south.upstreamLocationId,
      connected: true,
      archived: false,
      connectionStatus: "needs_attention",
      connectedAt: null,
      attentionReason: "The upstream refused the token.",
      lastCheckOk: null,
      lastSession: null,
      // 10:00 in Berlin (summer time) on the day of "now".
      nextSyncAt: new Date("2026-06-01T08:00:00Z"),
      schedulePaused: null,
      syncTime: "10:00",
      timeZone: "Europe/Berlin",
    });
    expect(items.find((item) => item.id === north.id)?.connectionStatus).toBe("connected");
    expect(items.find((item) => item.id === garage.id)?.connectionStatus).toBe("not_connected");
  });

  it("says tomorrow for the next sync once today's scheduled session exists", async () => {
    const before = (await list(staff, { q: "Garage" })).items[0]!;
    expect(before.nextSyncAt).toEqual(new Date("2026-06-01T08:00:00Z"));
    await db.insert(syncSessions).values({
      locationId: garage.id,
      environment: "staging",
      trigger: "schedule",
      optionalSteps: [],
      status: "succeeded",
      scheduledFor: "2026-06-01",
      createdAt: new Date("2026-05-31T22:30:00Z"),
    });
    expect((await list(staff, { q: "Garage" })).items[0]!.nextSyncAt).toEqual(new Date("2026-06-02T08:00:00Z"));
    await db.delete(syncSessions).where(eq(syncSessions.locationId, garage.id));
  });

  it("shows each location's newest session", async () => {
    await db.insert(syncSessions).values([
      {
        locationId: north.id,
        environment: "staging",
        trigger: "schedule",
        optionalSteps: [],
        status: "failed",
        createdAt: new Date("2026-05-30T08:00:00Z"),
        finishedAt: new Date("2026-05-30T08:05:00Z"),
      },
      {
        locationId: north.id,
        environment: "staging",
        trigger: "manual",
        optionalSteps: [],
        status: "succeeded",
        createdAt: new Date("2026-05-31T08:00:00Z"),
        finishedAt: new Date("2026-05-31T08:04:00Z"),
      },
    ]);
    const [newest] = await db
      .select({ id: syncSessions.id })
      .from(syncSessions)
      .where(eq(syncSessions.trigger, "manual"))
      .orderBy(desc(syncSessions.createdAt))
      .limit(1);
    await db.insert(syncSteps).values([
      { sessionId: newest!.id, name: "contact_details", position: 5, status: "succeeded", recordsInvalid: 3 },
      { sessionId: newest!.id, name: "appointments", position: 6, status: "succeeded", recordsInvalid: 337, recordsExcluded: 25 },
    ]);
    const { items } = await list(staff, { q: prefix });
    // A success that left records out: the list reads it "Succeeded with 365 not sent".
    expect(items.find((item) => item.id === north.id)?.lastSession).toEqual({
      status: "succeeded",
      endedAt: new Date("2026-05-31T08:04:00Z"),
      notSent: 365,
    });
    expect(items.find((item) => item.id === garage.id)?.lastSession).toBeNull();
  });

  it("never puts the sealed token in a result", async () => {
    const text = JSON.stringify(await list(staff, { limit: 200 }));
    expect(text).not.toContain("locationTokenEncrypted");
    expect(text).not.toContain("sealed-token-stand-in");
  });

  it("pages forward and back by keyset over 120 rows: each row once, in order, total constant", async () => {
    const pagedPrefix = "Paged";
    const names = Array.from({ length: 120 }, (_, index) => `${pagedPrefix} ${index % 2 ? "b" : "B"}${String(index % 40).padStart(2, "0")}`);
    await db.insert(locations).values(names.map((name, index) => ({ name, upstreamLocationId: `paged-${index}` })));
    const rows = await db.select({ id: locations.id, name: locations.name }).from(locations);
    const expected = rows
      .filter((row) => row.name.startsWith(pagedPrefix))
      .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : a.id < b.id ? -1 : 1))
      .map((row) => row.id);

    const forwardPages: string[][] = [];
    let page = await list(staff, { q: pagedPrefix, limit: 25 });
    expect(page.previousCursor).toBeNull();
    for (;;) {
      expect(page.total).toBe(120);
      forwardPages.push(page.items.map((item) => item.id));
      if (!page.nextCursor) break;
      page = await list(staff, { q: pagedPrefix, limit: 25, after: page.nextCursor });
    }
    expect(forwardPages.map((ids) => ids.length)).toEqual([25, 25, 25, 25, 20]);
    expect(forwardPages.flat()).toEqual(expected);

    const backwardPages: string[][] = [page.items.map((item) => item.id)];
    while (page.previousCursor) {
      page = await list(staff, { q: pagedPrefix, limit: 25, before: page.previousCursor });
      expect(page.nextCursor).not.toBeNull();
      backwardPages.unshift(page.items.map((item) => item.id));
    }
    expect(backwardPages).toEqual(forwardPages);
  });

  it("refuses a cursor it did not make", async () => {
    const error = await caught(list(staff, { after: "not-a-cursor" }));
    expect(error.code).toBe("INVALID");
    expect(error.fields).toEqual([{ field: "after", reason: "is not a valid page cursor" }]);
  });
});

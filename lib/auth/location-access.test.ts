import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { locationMembers, locations, users } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { getLocationView } from "@/lib/locations/get-location";
import { startManualSession } from "@/lib/sync/start-manual-session";
import { updateLocation } from "@/lib/locations/update-location";
import { assertCanAtLocation, loadLocationMembers, visibleLocationCondition } from "./location-access";
import { systemActorAs, type UserActor } from "./permissions";

const { db } = await useTestDatabase();

async function userOf(role: UserActor["role"]) {
  const [row] = await db
    .insert(users)
    .values({ email: `${role}-${Math.random()}@example.test`, role })
    .returning();
  return { id: row!.id, role: row!.role, email: row!.email };
}

async function ownedLocation() {
  const [location] = await db
    .insert(locations)
    .values({ name: `Member Salon ${Math.random()}`, timeZone: "Europe/Berlin" })
    .returning();
  const owner = await userOf("owner");
  await db.insert(locationMembers).values({ locationId: location!.id, userId: owner.id });
  return { location: location!, owner };
}

describe("the membership rule against the database", () => {
  it("loads a location's members, none for an unknown location", async () => {
    const { location, owner } = await ownedLocation();
    expect(await loadLocationMembers(db, location.id)).toEqual({ id: location.id, memberIds: [owner.id] });
    expect(await loadLocationMembers(db, "00000000-0000-4000-8000-000000000000")).toEqual({
      id: "00000000-0000-4000-8000-000000000000",
      memberIds: [],
    });
  });

  it("lets the owner through, hides the location from another owner (404) and refuses a role first (403)", async () => {
    const { location, owner } = await ownedLocation();
    const stranger = await userOf("owner");
    await expect(assertCanAtLocation(db, owner, "location.connect", location.id)).resolves.toBeUndefined();
    await expect(assertCanAtLocation(db, stranger, "location.connect", location.id)).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Location not found.",
    });
    await expect(assertCanAtLocation(db, stranger, "location.edit", location.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(assertCanAtLocation(db, await userOf("engineer"), "sync.start", location.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(assertCanAtLocation(db, await userOf("engineer"), "preview.view", location.id)).resolves.toBeUndefined();
  });

  it("filters lists to the locations an owner is a member of", async () => {
    const { location, owner } = await ownedLocation();
    const { location: other } = await ownedLocation();
    const visible = async (actor: Parameters<typeof visibleLocationCondition>[0]) =>
      (
        await db
          .select({ id: locations.id })
          .from(locations)
          .where(visibleLocationCondition(actor, "location.view", sql`${locations.id}`))
      ).map((row) => row.id);
    expect(await visible(owner)).toEqual([location.id]);
    expect(await visible(await userOf("support"))).toEqual(expect.arrayContaining([location.id, other.id]));
    expect(() => visibleLocationCondition(owner, "fleet.view", sql`${locations.id}`)).toThrow(expect.objectContaining({ code: "FORBIDDEN" }));
  });
});

describe("operations check the table themselves, whoever calls them", () => {
  it("refuses an owner another owner's location, and a role the action does not allow", async () => {
    const { location, owner } = await ownedLocation();
    const stranger = { ...(await userOf("owner")), clientAddress: "203.0.113.1" };
    await expect(getLocationView({ db, actor: stranger }, { locationId: location.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // Syncing is the operators' (an owner sees the outcome on their location page), even on the owner's own location.
    await expect(
      startManualSession({ db, actor: { ...owner, clientAddress: "203.0.113.3" } }, { locationId: location.id, full: false }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const engineer = { ...(await userOf("engineer")), clientAddress: "203.0.113.2" };
    await expect(updateLocation({ db, actor: engineer }, { locationId: location.id, name: "Renamed by an engineer" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it("lets the system actor (the CLI) act on any location", async () => {
    const { location } = await ownedLocation();
    const renamed = await updateLocation({ db, actor: systemActorAs("cli", "cli") }, { locationId: location.id, name: "Renamed at the console" });
    expect(renamed.name).toBe("Renamed at the console");
  });
});

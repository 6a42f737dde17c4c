import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { locations, syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { findDueLocations } from "./due-locations";

const testDb = await useTestDatabase();

async function createLocation(values: { timeZone: string; syncTime: string; connected?: boolean }) {
  const [location] = await testDb.db
    .insert(locations)
    .values({
      name: `Salon ${values.timeZone} ${values.syncTime}`,
      timeZone: values.timeZone,
      syncTime: values.syncTime,
      upstreamLocationId: randomUUID(),
      locationTokenEncrypted: values.connected === false ? null : "sealed-token",
    })
    .returning();
  return location!;
}

/** What findDueLocations answers at `now`, limited to the test's own locations. */
async function dueAt(now: string, ...ids: string[]) {
  const due = await findDueLocations(testDb.db, new Date(now));
  return due
    .filter((location) => ids.includes(location.locationId))
    .map(({ locationId, localToday, dueAt }) => ({ locationId, localToday, dueAt: dueAt.toISOString() }));
}

describe("findDueLocations", () => {
  it("uses each location's own zone east and west of UTC, and its local date", async () => {
    const tokyo = await createLocation({ timeZone: "Asia/Tokyo", syncTime: "10:00" });
    const losAngeles = await createLocation({ timeZone: "America/Los_Angeles", syncTime: "10:00" });

    // 09:59 in Tokyo (June 15); 17:59 of June 14 in Los Angeles.
    expect(await dueAt("2026-06-15T00:59:00Z", tokyo.id, losAngeles.id)).toEqual([
      { locationId: losAngeles.id, localToday: "2026-06-14", dueAt: "2026-06-14T17:00:00.000Z" },
    ]);
    // 10:00 in Tokyo: due at that very minute.
    expect(await dueAt("2026-06-15T01:00:00Z", tokyo.id, losAngeles.id)).toEqual([
      { locationId: losAngeles.id, localToday: "2026-06-14", dueAt: "2026-06-14T17:00:00.000Z" },
      { locationId: tokyo.id, localToday: "2026-06-15", dueAt: "2026-06-15T01:00:00.000Z" },
    ]);
    // 19:00 in Los Angeles closes its window; Tokyo is still inside its own.
    expect(await dueAt("2026-06-15T02:00:00Z", tokyo.id, losAngeles.id)).toEqual([
      { locationId: tokyo.id, localToday: "2026-06-15", dueAt: "2026-06-15T01:00:00.000Z" },
    ]);
  });

  it("reads a zone name whatever its case, as PostgreSQL and luxon do: a location stored as europe/berlin is due", async () => {
    const lower = await createLocation({ timeZone: "europe/berlin", syncTime: "10:00" });
    const upper = await createLocation({ timeZone: "EUROPE/BERLIN", syncTime: "10:00" });
    expect(await dueAt("2026-06-15T08:00:00Z", lower.id, upper.id)).toEqual(
      [
        { locationId: lower.id, localToday: "2026-06-15", dueAt: "2026-06-15T08:00:00.000Z" },
        { locationId: upper.id, localToday: "2026-06-15", dueAt: "2026-06-15T08:00:00.000Z" },
      ].sort((first, second) => (first.locationId < second.locationId ? -1 : 1)),
    );
  });

  it("is not due before the sync time, nor outside the 09:00–19:00 window", async () => {
    const late = await createLocation({ timeZone: "Europe/Berlin", syncTime: "18:30" });
    const early = await createLocation({ timeZone: "Europe/Berlin", syncTime: "09:00" });

    expect(await dueAt("2026-06-15T06:59:59Z", late.id, early.id)).toEqual([]); // 08:59:59 local
    expect(await dueAt("2026-06-15T07:00:00Z", late.id, early.id)).toMatchObject([{ locationId: early.id }]); // 09:00
    expect(await dueAt("2026-06-15T16:29:00Z", late.id, early.id)).toMatchObject([{ locationId: early.id }]); // 18:29
    expect(await dueAt("2026-06-15T16:30:00Z", late.id, early.id)).toMatchObject([{ locationId: early.id }, { locationId: late.id }]); // 18:30
    expect(await dueAt("2026-06-15T16:59:59Z", late.id, early.id)).toHaveLength(2); // 18:59:59
    expect(await dueAt("2026-06-15T17:00:00Z", late.id, early.id)).toEqual([]); // 19:00
    expect(await dueAt("2026-06-15T22:30:00Z", late.id, early.id)).toEqual([]); // 00:30 of the next day
  });

  it("skips locations that are not connected", async () => {
    const disconnected = await createLocation({ timeZone: "UTC", syncTime: "10:00", connected: false });
    expect(await dueAt("2026-06-15T12:00:00Z", disconnected.id)).toEqual([]);
  });

  it("is not due again once today's session is scheduled, and is due the next day", async () => {
    const location = await createLocation({ timeZone: "America/Sao_Paulo", syncTime: "11:15" });
    expect(await dueAt("2026-06-15T14:20:00Z", location.id)).toEqual([
      { locationId: location.id, localToday: "2026-06-15", dueAt: "2026-06-15T14:15:00.000Z" },
    ]);

    await testDb.db.insert(syncSessions).values({
      locationId: location.id,
      environment: location.environment,
      trigger: "schedule",
      optionalSteps: [],
      status: "succeeded",
      scheduledFor: "2026-06-15",
    });
    expect(await dueAt("2026-06-15T14:21:00Z", location.id)).toEqual([]);
    expect(await dueAt("2026-06-15T21:59:00Z", location.id)).toEqual([]); // 18:59 local
    expect(await dueAt("2026-06-16T14:15:00Z", location.id)).toEqual([
      { locationId: location.id, localToday: "2026-06-16", dueAt: "2026-06-16T14:15:00.000Z" },
    ]);
  });

  it("skips a location whose zone Postgres does not know, without failing the others", async () => {
    const unknownZone = await createLocation({ timeZone: "Mars/Olympus_Mons", syncTime: "10:00" });
    const known = await createLocation({ timeZone: "UTC", syncTime: "10:00" });
    expect(await dueAt("2026-06-15T12:00:00Z", unknownZone.id, known.id)).toMatchObject([{ locationId: known.id }]);
    await testDb.db.update(locations).set({ locationTokenEncrypted: null }).where(eq(locations.id, unknownZone.id));
  });
});

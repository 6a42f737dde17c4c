import { systemContext } from "@/lib/operations/context";
import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, describe, expect, it } from "vitest";
import { locations, syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { findDueLocations } from "./due-locations";
import { startDueSyncs } from "./start-due-syncs";

const testDb = await useTestDatabase();
afterAll(() => stopJobSender());

const minute = 60_000;

/**
 * Ticks through the whole local `date` with only this location connected, as the scheduler
 * would: every minute from 09:00 to 11:00 local, every ten minutes elsewhere (to keep the test
 * fast). Answers the instants at which a session was started.
 */
async function tickThroughLocalDay(timeZone: string, date: string) {
  const [location] = await testDb.db
    .insert(locations)
    .values({
      name: `Salon ${timeZone} ${date}`,
      timeZone,
      syncTime: "10:00",
      upstreamLocationId: randomUUID(),
      locationTokenEncrypted: "sealed-token",
    })
    .returning();
  const start = DateTime.fromISO(date, { zone: timeZone }).startOf("day");
  const end = start.plus({ days: 1 });
  const startedAt: string[] = [];
  for (let now = start.toMillis(); now < end.toMillis(); now += minute) {
    const local = DateTime.fromMillis(now, { zone: timeZone });
    if (local.minute % 10 !== 0 && (local.hour < 9 || local.hour >= 11)) continue;
    const tick = await startDueSyncs({ ...systemContext(testDb.db), now: new Date(now) });
    expect(tick.failed).toEqual([]);
    for (const request of tick.requested) if (request.result.started) startedAt.push(new Date(now).toISOString());
  }
  const [sessions] = await testDb.db.select({ count: count() }).from(syncSessions).where(eq(syncSessions.locationId, location!.id));
  const [session] = await testDb.db
    .select({ scheduledFor: syncSessions.scheduledFor })
    .from(syncSessions)
    .where(eq(syncSessions.locationId, location!.id));
  await testDb.db.update(locations).set({ locationTokenEncrypted: null }).where(eq(locations.id, location!.id));
  return { startedAt, sessions: sessions!.count, scheduledFor: session?.scheduledFor, minutesInDay: (end.toMillis() - start.toMillis()) / minute };
}

/** The instant findDueLocations computes for a 10:00 sync on a local date (asked at noon). */
async function computedSyncInstant(timeZone: string, date: string) {
  const [location] = await testDb.db
    .insert(locations)
    .values({
      name: `Probe ${timeZone} ${date}`,
      timeZone,
      syncTime: "10:00",
      upstreamLocationId: randomUUID(),
      locationTokenEncrypted: "sealed-token",
    })
    .returning();
  const noon = DateTime.fromISO(`${date}T12:00`, { zone: timeZone }).toJSDate();
  const due = (await findDueLocations(testDb.db, noon)).find((candidate) => candidate.locationId === location!.id);
  await testDb.db.update(locations).set({ locationTokenEncrypted: null }).where(eq(locations.id, location!.id));
  return due!.dueAt.toISOString();
}

describe("the schedule on daylight-saving change days", () => {
  it.each([
    {
      timeZone: "Europe/Berlin",
      date: "2026-03-29",
      hours: 23,
      at: "2026-03-29T08:00:00.000Z",
      dayBefore: "2026-03-28",
      before: "2026-03-28T09:00:00.000Z",
    },
    {
      timeZone: "Europe/Berlin",
      date: "2026-10-25",
      hours: 25,
      at: "2026-10-25T09:00:00.000Z",
      dayBefore: "2026-10-24",
      before: "2026-10-24T08:00:00.000Z",
    },
    {
      timeZone: "America/New_York",
      date: "2026-03-08",
      hours: 23,
      at: "2026-03-08T14:00:00.000Z",
      dayBefore: "2026-03-07",
      before: "2026-03-07T15:00:00.000Z",
    },
    {
      timeZone: "America/New_York",
      date: "2026-11-01",
      hours: 25,
      at: "2026-11-01T15:00:00.000Z",
      dayBefore: "2026-10-31",
      before: "2026-10-31T14:00:00.000Z",
    },
  ])(
    "$timeZone $date ($hours h): a 10:00 sync starts exactly once, at 10:00 local",
    async ({ timeZone, date, hours, at, dayBefore, before }) => {
      const day = await tickThroughLocalDay(timeZone, date);
      expect(day.minutesInDay).toBe(hours * 60);
      expect(day.startedAt).toEqual([at]);
      expect(day.sessions).toBe(1);
      expect(day.scheduledFor).toBe(date);

      // Same wall time; the instant moves by the offset change: 23 or 25 hours after the day before's.
      expect(await computedSyncInstant(timeZone, dayBefore)).toBe(before);
      expect(await computedSyncInstant(timeZone, date)).toBe(at);
      expect(Date.parse(at) - Date.parse(before)).toBe(hours * 60 * minute);
    },
    60_000,
  );
});

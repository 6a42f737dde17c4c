import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import type { SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment } from "@/lib/source/testing/source-row-factories";
import { sampleSourceRows } from "./testing/sample-source";
import { compareType } from "./testing/sync-assertions";
import { createConnectedLocation, runManualTestSync, sandboxStored, useSyncSandbox } from "./testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);

const visit = (id: string, startsAt: string, endsAt: string) =>
  sourceAppointment(id, startsAt.slice(0, 10), { starts_at: startsAt, ends_at: endsAt });

/** The sample salon with the given appointments and free slots. */
function salon(appointments: SourceRows["appointments"], availability: SourceRows["availability"] = []): SourceRows {
  return { ...sampleSourceRows(), appointments, availability };
}

describe("a location whose clock skips local midnight", () => {
  it.each([
    // 10:00 on the spring-forward day (24:00 → 01:00): the horizon ends on the day six months ahead.
    { timeZone: "America/Santiago", now: "2025-09-07T13:00:00Z", tomorrow: "2025-09-08T13:00:00Z", lastDay: "2026-03-07", dayAfter: "2026-03-08" },
    { timeZone: "America/Havana", now: "2025-03-09T14:00:00Z", tomorrow: "2025-03-10T14:00:00Z", lastDay: "2025-09-09", dayAfter: "2025-09-10" },
  ])(
    "$timeZone: a sync on the day without midnight sends what its preview lists, to the horizon's last minute; the next day's first hour waits for the next day",
    async ({ timeZone, now, tomorrow, lastDay, dayAfter }) => {
      const location = await createConnectedLocation(db, setup, { sourceKey: "array", timeZone });
      const rows = salon([
        visit("late", `${lastDay} 23:30:00`, `${dayAfter} 00:15:00`),
        visit("after-midnight", `${dayAfter} 00:30:00`, `${dayAfter} 01:15:00`),
      ]);
      await runManualTestSync(db, location.id, rows, { now: new Date(now) });
      const upstream = { locationId: location.id, upstreamLocationId: location.upstreamLocationId, type: "appointments" as const };
      // The preview computed at the session's moment says what the upstream holds: not the visit after the horizon.
      const compared = await compareType(db, upstream);
      expect(Object.keys(compared.stored)).toEqual(["late"]);
      expect(compared.expected).toEqual(compared.stored);

      await runManualTestSync(db, location.id, rows, { now: new Date(tomorrow) });
      expect([...(await sandboxStored(db, location.upstreamLocationId, "appointments")).keys()].sort()).toEqual(["after-midnight", "late"]);
    },
    60_000,
  );

  it("sends the openings of the next 72 real hours, from the first minute of the day without midnight to the last one before the 72 h end", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array", timeZone: "America/Santiago" });
    // 10:00 on 4 September (UTC-4); 72 hours later is 11:00 on 7 September (UTC-3), the clock having skipped 00:00–01:00.
    const slot = (startsAt: string) => ({ staff_id: "s1", service_id: "sv1", starts_at: startsAt });
    const rows = salon([], [slot("2025-09-06 23:30:00"), slot("2025-09-07 01:00:00"), slot("2025-09-07 10:30:00"), slot("2025-09-07 11:00:00")]);
    await runManualTestSync(db, location.id, rows, { now: new Date("2025-09-04T14:00:00Z") });
    const starts = [...(await sandboxStored(db, location.upstreamLocationId, "openings")).values()].map(
      (data) => (data as { start_at: string }).start_at,
    );
    expect(starts.sort()).toEqual(["2025-09-06T23:30:00Z-04:00", "2025-09-07T01:00:00Z-03:00", "2025-09-07T10:30:00Z-03:00"]);
  }, 60_000);
});

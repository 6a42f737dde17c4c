import { describe, expect, it } from "vitest";
import { syncedRecords } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { createFleetLocation } from "@/lib/fleet/testing/fleet-factories";
import { planAppointments } from "./plan-appointments";

const { db } = await useTestDatabase();

const plan = (locationId: string) =>
  planAppointments(db, { locationId, full: false, unsyncedOnly: false, today: "2026-03-10", horizonEnd: "2026-09-10" });

describe("planAppointments", () => {
  it("sends today to 6 months ahead when an accepted appointment has no recorded date, even among contacts without one", async () => {
    const location = await createFleetLocation(db);
    const accepted = (recordType: string, recordKey: string, appointmentDate: string | null) =>
      ({ locationId: location.id, recordType, recordKey, contentHash: "h", appointmentDate }) as const;
    await db
      .insert(syncedRecords)
      .values([
        ...Array.from({ length: 50 }, (_, index) => accepted("contact_details", `cu${index}`, null)),
        accepted("appointments", "a1", "2026-02-05"),
        accepted("appointments", "a2", "2026-03-20"),
      ]);
    // Both accepted appointments are gone from the (empty) preview: their dates are touched.
    expect(await plan(location.id)).toEqual({ mode: "touched", keys: ["2026-02-05..2026-02-05", "2026-03-20..2026-03-20"], removedByDay: null });

    await db.insert(syncedRecords).values(accepted("appointments", "a3", null));
    expect(await plan(location.id)).toEqual({ mode: "fallback", keys: ["2026-03-10..2026-09-10"], removedByDay: null });
  });

  it("sends the whole history by month while no appointment was accepted, though contacts were", async () => {
    const location = await createFleetLocation(db);
    await db.insert(syncedRecords).values({ locationId: location.id, recordType: "contact_details", recordKey: "cu1", contentHash: "h" });
    expect(await plan(location.id)).toEqual({
      mode: "history",
      keys: [
        "2026-03-10..2026-03-31",
        "2026-04-01..2026-04-30",
        "2026-05-01..2026-05-31",
        "2026-06-01..2026-06-30",
        "2026-07-01..2026-07-31",
        "2026-08-01..2026-08-31",
        "2026-09-01..2026-09-10",
      ],
      removedByDay: null,
    });
  });
});

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
    expect(await plan(location.id)).toEqual({ mode: "touched", keys: ["2026-02-05..2026-02-05", "2026-03-20..2026-03-20"] });

    await db.insert(syncedRecords).values(accepted("appointments", "a3", null));
    expect(await plan(location.id)).toEqual({ mode: "fallback", keys: ["2026-03-10..2026-09-10"] });
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { findDueLocations } from "@/lib/sync/schedule/due-locations";
import { setSchedulePaused, SchedulePauseInput } from "./schedule-pause";
import { createFleetLocation } from "./testing/fleet-factories";

const { db } = await useTestDatabase();
const actor = systemActorAs("support@example.test");
const dueIds = async (now: string) => (await findDueLocations(db, new Date(now))).map((due) => due.locationId);

describe("schedule pause", () => {
  it("skips a paused location in the scheduler until it is resumed, recording who and why", async () => {
    const location = await createFleetLocation(db, { timeZone: "Europe/Berlin", syncTime: "10:00" });
    expect(await dueIds("2026-06-15T08:30:00Z")).toContain(location.id);

    const paused = await setSchedulePaused({ db, actor }, { locationId: location.id, paused: true, reason: "Owner is migrating data" });
    expect(paused).toMatchObject({ paused: true, pausedByEmail: "support@example.test", reason: "Owner is migrating data" });
    expect(await dueIds("2026-06-15T08:30:00Z")).not.toContain(location.id);

    // Pausing again changes nothing and records nothing.
    await setSchedulePaused({ db, actor }, { locationId: location.id, paused: true, reason: "again" });
    const resumed = await setSchedulePaused({ db, actor }, { locationId: location.id, paused: false });
    expect(resumed).toEqual({ paused: false, pausedAt: null, pausedByEmail: null, reason: null });
    expect(await dueIds("2026-06-15T08:30:00Z")).toContain(location.id);

    const audit = await db.select().from(auditLog).where(eq(auditLog.targetId, location.id)).orderBy(auditLog.id);
    expect(audit.map((entry) => [entry.action, entry.actorEmail, entry.details])).toEqual([
      ["location.schedule_paused", "support@example.test", { reason: "Owner is migrating data" }],
      ["location.schedule_resumed", "support@example.test", {}],
    ]);
  });

  it("asks why when pausing", () => {
    expect(SchedulePauseInput.safeParse({ paused: true }).success).toBe(false);
    expect(SchedulePauseInput.safeParse({ paused: false }).success).toBe(true);
  });

  it("answers NOT_FOUND for an unknown location", async () => {
    await expect(
      setSchedulePaused({ db, actor }, { locationId: "00000000-0000-4000-8000-000000000000", paused: true, reason: "x" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

import { sql } from "drizzle-orm";
import { syncSteps } from "@/db/schema";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { countLocationsNeedingAttention } from "./count-attention";
import { FleetMatrixQuery, FleetSessionQuery } from "./fleet-inputs";
import { countFleetSessionsToday, listFleetDays } from "./fleet-session-stats";
import { loadFleetMatrix } from "./fleet-matrix";
import { listFleetSessions } from "./list-fleet-sessions";
import { createFleetLocation, createFleetSession, createOwnerOf } from "./testing/fleet-factories";

const { db } = await useTestDatabase();
const staff = { id: "00000000-0000-4000-8000-000000000001", role: "support" as const };
const hoursBefore = (now: Date, hours: number) => new Date(now.getTime() - hours * 3_600_000);

describe("fleet sessions", () => {
  it("lists running, then failures still needing attention, then the rest newest first, page by page", async () => {
    const now = new Date();
    const failing = await createFleetLocation(db, {
      name: "Fleet failing",
      attentionReason: "The last sync failed",
      attentionSince: hoursBefore(now, 5),
    });
    const healthy = await createFleetLocation(db, { name: "Fleet healthy" });
    const oldFailure = await createFleetSession(db, { locationId: healthy.id, status: "failed", createdAt: hoursBefore(now, 48) });
    const success = await createFleetSession(db, { locationId: healthy.id, status: "succeeded", createdAt: hoursBefore(now, 1) });
    const currentFailure = await createFleetSession(db, { locationId: failing.id, status: "failed", createdAt: hoursBefore(now, 5), durationMs: 0 });
    const running = await createFleetSession(db, { locationId: failing.id, status: "running", createdAt: hoursBefore(now, 10) });

    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = await listFleetSessions({ db, actor: staff }, FleetSessionQuery.parse({ q: "Fleet ", limit: 1, after }));
      seen.push(...page.items.map((item) => item.id));
      after = page.nextCursor ?? undefined;
    } while (after);
    expect(seen).toEqual([running.id, currentFailure.id, success.id, oldFailure.id]);

    const firstPage = await listFleetSessions({ db, actor: staff }, FleetSessionQuery.parse({ q: "Fleet ", status: "failed" }));
    expect(firstPage.items.map((item) => [item.locationName, item.needsAttention])).toEqual([
      ["Fleet failing", true],
      ["Fleet healthy", false],
    ]);
  });

  it("counts the records each session's steps left out, invalid and excluded by rule", async () => {
    const location = await createFleetLocation(db, { name: "Fleet left out" });
    const session = await createFleetSession(db, {
      locationId: location.id,
      status: "succeeded",
      createdAt: new Date(),
      steps: { services: "succeeded", appointments: "succeeded", close: "succeeded" },
    });
    await db
      .update(syncSteps)
      .set({ recordsInvalid: 1 })
      .where(sql`${syncSteps.sessionId} = ${session.id} and ${syncSteps.name} = 'services'`);
    await db
      .update(syncSteps)
      .set({ recordsInvalid: 337, recordsExcluded: 27 })
      .where(sql`${syncSteps.sessionId} = ${session.id} and ${syncSteps.name} = 'appointments'`);
    const clean = await createFleetSession(db, {
      locationId: location.id,
      status: "succeeded",
      createdAt: new Date(),
      steps: { close: "succeeded" },
    });
    const page = await listFleetSessions({ db, actor: staff }, FleetSessionQuery.parse({ q: "Fleet left out" }));
    expect(Object.fromEntries(page.items.map((item) => [item.id, item.recordsNotSent]))).toEqual({ [session.id]: 365, [clean.id]: 0 });
  });

  it("refuses owners the fleet's sessions, even their own location's, and refuses a forged cursor", async () => {
    const mine = await createFleetLocation(db, { name: "Owner mine" });
    const owner = await createOwnerOf(db, mine.id);
    await createFleetSession(db, { locationId: mine.id, status: "succeeded", createdAt: new Date() });
    await expect(listFleetSessions({ db, actor: owner }, FleetSessionQuery.parse({}))).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listFleetSessions({ db, actor: staff }, FleetSessionQuery.parse({ after: "bm9wZQ" }))).rejects.toMatchObject({ code: "INVALID" });
  });
});

describe("the sessions a count or a chart day links to", () => {
  it("lists the sessions that ended on a UTC day (the today tiles) or were created on one (the chart's days)", async () => {
    const location = await createFleetLocation(db, { name: `Day links ${Date.now()}` });
    // Created late on 2031-05-01, ended early on 2031-05-02 (UTC).
    const overnight = await createFleetSession(db, {
      locationId: location.id,
      status: "failed",
      createdAt: new Date("2031-05-01T23:50:00Z"),
      durationMs: 20 * 60_000,
    });
    const sameDay = await createFleetSession(db, { locationId: location.id, status: "succeeded", createdAt: new Date("2031-05-02T10:00:00Z") });
    const ids = async (query: Record<string, string>) =>
      (await listFleetSessions({ db, actor: staff }, FleetSessionQuery.parse({ q: location.name, ...query }))).items.map((item) => item.id).sort();
    expect(await ids({ ended: "2031-05-02" })).toEqual([overnight.id, sameDay.id].sort());
    expect(await ids({ ended: "2031-05-02", status: "failed" })).toEqual([overnight.id]);
    expect(await ids({ created: "2031-05-01" })).toEqual([overnight.id]);
    expect(await ids({ created: "2031-05-02" })).toEqual([sameDay.id]);
    expect(FleetSessionQuery.safeParse({ ended: "yesterday" }).success).toBe(false);
  });
});

describe("fleet statistics", () => {
  it("counts today's outcomes by UTC day and charts 30 days with median and p90 durations", async () => {
    const now = new Date("2030-03-10T12:00:00Z");
    // 2030: no other test's sessions fall on these days (running ones of other tests count on any day: measured before).
    const before = await countFleetSessionsToday({ db, actor: staff, now: now });
    const location = await createFleetLocation(db);
    await createFleetSession(db, { locationId: location.id, status: "succeeded", createdAt: new Date("2030-03-10T01:00:00Z"), durationMs: 10_000 });
    await createFleetSession(db, { locationId: location.id, status: "failed", createdAt: new Date("2030-03-10T02:00:00Z"), durationMs: 30_000 });
    // Ended yesterday (UTC): not today's.
    await createFleetSession(db, { locationId: location.id, status: "succeeded", createdAt: new Date("2030-03-09T23:00:00Z"), durationMs: 20_000 });
    await createFleetSession(db, { locationId: location.id, status: "running", createdAt: new Date("2030-03-10T11:59:00Z") });

    expect(await countFleetSessionsToday({ db, actor: staff, now: now })).toEqual({
      succeeded: before.succeeded + 1,
      failed: before.failed + 1,
      running: before.running + 1,
      queued: before.queued,
    });
    const days = await listFleetDays({ db, actor: staff, now: now });
    expect(days).toHaveLength(30);
    expect(days[0]!.day).toBe("2030-02-09");
    expect(days.at(-2)).toEqual({ day: "2030-03-09", sessions: 1, failed: 0, medianDurationMs: 20_000, p90DurationMs: 20_000 });
    expect(days.at(-1)).toEqual({ day: "2030-03-10", sessions: 3, failed: 1, medianDurationMs: 20_000, p90DurationMs: 28_000 });
  });
});

describe("fleet matrix", () => {
  it("colours each step by its last outcome and freshness, worst locations first", async () => {
    const now = new Date();
    const prefix = `Matrix ${Date.now()}`;
    const fresh = await createFleetLocation(db, { name: `${prefix} a fresh` });
    const stale = await createFleetLocation(db, { name: `${prefix} b stale` });
    const failed = await createFleetLocation(db, { name: `${prefix} c failed` });
    const attention = await createFleetLocation(db, {
      name: `${prefix} d attention`,
      attentionReason: "Token refused",
      attentionSince: now,
      locationTokenEncrypted: null,
    });
    const all = {
      calendars: "succeeded",
      service_categories: "succeeded",
      services: "succeeded",
      contact_details: "succeeded",
      appointments: "succeeded",
      openings: "succeeded",
    } as const;
    await createFleetSession(db, { locationId: fresh.id, status: "succeeded", createdAt: hoursBefore(now, 2), steps: all });
    await createFleetSession(db, { locationId: stale.id, status: "succeeded", createdAt: hoursBefore(now, 30), steps: all });
    await createFleetSession(db, { locationId: failed.id, status: "succeeded", createdAt: hoursBefore(now, 3), steps: all });
    // The newer failure of openings wins over the older success; a skipped step does not count.
    await createFleetSession(db, {
      locationId: failed.id,
      status: "failed",
      createdAt: hoursBefore(now, 1),
      steps: { calendars: "skipped", openings: "failed" },
    });

    const page = await loadFleetMatrix({ db, actor: staff, now: now }, FleetMatrixQuery.parse({ q: prefix }));
    expect(page.total).toBe(4);
    expect(page.rows.map((row) => row.name)).toEqual([attention.name, failed.name, stale.name, fresh.name]);
    const states = (name: string) => page.rows.find((row) => row.name === name)!.cells.map((cell) => `${cell.step}:${cell.state}`);
    expect(states(fresh.name)).toEqual([
      "calendars:fresh",
      "service_categories:fresh",
      "services:fresh",
      "contact_details:fresh",
      "vehicles:not_applicable",
      "appointments:fresh",
      "openings:fresh",
    ]);
    expect(states(stale.name)).toContain("openings:stale");
    expect(states(stale.name)).toContain("contact_details:fresh");
    expect(states(failed.name)).toContain("openings:failed");
    expect(states(failed.name)).toContain("calendars:fresh");
    expect(states(attention.name)).toContain("openings:never");
    // Whether the schedule can sync it: only a connected location.
    expect(page.rows.map((row) => [row.name, row.connected])).toEqual([
      [attention.name, false],
      [failed.name, true],
      [stale.name, true],
      [fresh.name, true],
    ]);
    // Each row carries its newest session's outcome: the failure is newer than the success before it.
    const latest = (name: string) => page.rows.find((row) => row.name === name)!.latestSession;
    expect(latest(failed.name)).toMatchObject({ status: "failed", recordsNotSent: 0 });
    expect(latest(fresh.name)).toMatchObject({ status: "succeeded", recordsNotSent: 0 });
    expect(latest(attention.name)).toBeNull();

    const second = await loadFleetMatrix({ db, actor: staff, now: now }, FleetMatrixQuery.parse({ q: prefix, limit: 3, page: 2 }));
    expect(second.rows.map((row) => row.name)).toEqual([fresh.name]);
    expect(second.pageCount).toBe(2);
  });

  it("follows steps as the engine ends them (an update from running), keeping the newest outcome", async () => {
    const now = new Date();
    const location = await createFleetLocation(db, { name: `Trigger ${Date.now()}` });
    const older = await createFleetSession(db, {
      locationId: location.id,
      status: "running",
      createdAt: hoursBefore(now, 5),
      steps: { openings: "pending" },
    });
    const newer = await createFleetSession(db, {
      locationId: location.id,
      status: "succeeded",
      createdAt: hoursBefore(now, 1),
      steps: { openings: "succeeded" },
    });
    // The older session's step ends last but happened earlier: it must not hide the newer success.
    await db.execute(
      sql`update sync_steps set status = 'failed', finished_at = ${hoursBefore(now, 4).toISOString()}::timestamptz where session_id = ${older.id}`,
    );
    const cellOf = async () =>
      (await loadFleetMatrix({ db, actor: staff, now: now }, FleetMatrixQuery.parse({ q: location.name }))).rows[0]!.cells.find(
        (cell) => cell.step === "openings",
      )!;
    expect((await cellOf()).state).toBe("fresh");
    await db.execute(sql`update sync_steps set status = 'running', finished_at = null where session_id = ${newer.id}`);
    await db.execute(sql`update sync_steps set status = 'failed', finished_at = ${now.toISOString()}::timestamptz where session_id = ${newer.id}`);
    expect((await cellOf()).state).toBe("failed");
  });

  it("counts the locations needing attention that the viewer may see", async () => {
    const mine = await createFleetLocation(db, { attentionReason: "Token refused", attentionSince: new Date() });
    await createFleetLocation(db, { attentionReason: "Token refused", attentionSince: new Date() });
    const owner = await createOwnerOf(db, mine.id);
    expect(await countLocationsNeedingAttention({ db, actor: owner })).toBe(1);
    expect(await countLocationsNeedingAttention({ db, actor: staff })).toBeGreaterThanOrEqual(2);
  });
});

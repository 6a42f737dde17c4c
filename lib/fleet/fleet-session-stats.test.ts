import { eq, sql, type SQL } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { describe, expect, it } from "vitest";
import { syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { FleetSessionQuery } from "./fleet-inputs";
import { countFleetSessionsToday, listFleetDays } from "./fleet-session-stats";
import { fleetTodayTiles } from "./fleet-today-tiles";
import { listFleetSessions } from "./list-fleet-sessions";
import { createFleetLocation, createFleetSession } from "./testing/fleet-factories";

const { db } = await useTestDatabase();
const staff = { id: "00000000-0000-4000-8000-000000000001", role: "support" as const };
const minutesBefore = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000);

/** Each tile as the page shows it, with the ids of the sessions its link lists. */
async function tilesWithTheirLists(now: Date) {
  const counts = await countFleetSessionsToday({ db, actor: staff, now });
  const tiles = fleetTodayTiles(counts, now.toISOString().slice(0, 10));
  return Promise.all(
    tiles.map(async (tile) => {
      const url = new URL(tile.href, "http://dashboard.test");
      expect(url.pathname).toBe("/sessions");
      const query = FleetSessionQuery.parse({ ...Object.fromEntries(url.searchParams), limit: 200 });
      const listed = await listFleetSessions({ db, actor: staff }, query);
      return { label: tile.label, value: tile.value, listed: listed.items.map((item) => item.id) };
    }),
  );
}

describe("the fleet view's tiles count exactly the sessions their links list", () => {
  it("counts running and queued sessions apart, each tile linking to its own list", async () => {
    const now = new Date();
    const running = await createFleetSession(db, {
      locationId: (await createFleetLocation(db, { name: "Tile running" })).id,
      status: "running",
      createdAt: minutesBefore(now, 1),
    });
    const queued = await createFleetSession(db, {
      locationId: (await createFleetLocation(db, { name: "Tile queued" })).id,
      status: "queued",
      createdAt: minutesBefore(now, 0.5),
    });
    const tiles = await tilesWithTheirLists(now);
    for (const tile of tiles) expect(tile.value, tile.label).toBe(tile.listed.length);
    expect(tiles.find((tile) => tile.label === "Running now")?.listed).toContain(running.id);
    expect(tiles.find((tile) => tile.label === "Running now")?.listed).not.toContain(queued.id);
    expect(tiles.find((tile) => tile.label === "Queued now")?.listed).toContain(queued.id);
  });

  it("counts a session that ended today as today's, however long ago it was queued", async () => {
    const now = new Date();
    // A minute ago, but never before this UTC day began (a run just after midnight).
    const endedToday = new Date(Math.max(now.getTime() - 60_000, Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + 1_000));
    const location = await createFleetLocation(db, { name: "Tile backlog" });
    // Queued three days ago while the workers were down; a worker ran it today, for a minute.
    const backlog = await createFleetSession(db, { locationId: location.id, status: "succeeded", createdAt: minutesBefore(now, 3 * 24 * 60) });
    const failed = await createFleetSession(db, { locationId: location.id, status: "failed", createdAt: minutesBefore(now, 5 * 24 * 60) });
    for (const id of [backlog.id, failed.id]) {
      await db
        .update(syncSessions)
        .set({ startedAt: minutesBefore(endedToday, 1), finishedAt: endedToday })
        .where(eq(syncSessions.id, id));
    }
    const tiles = await tilesWithTheirLists(now);
    for (const tile of tiles) expect(tile.value, tile.label).toBe(tile.listed.length);
    expect(tiles.find((tile) => tile.label === "Succeeded today")?.listed).toContain(backlog.id);
    expect(tiles.find((tile) => tile.label === "Failed today")?.listed).toContain(failed.id);
  });

  it("reads the tiles' and the chart's sessions through indexes, never the whole table", async () => {
    const plans = await db.transaction(async (tx) => {
      // The test table is tiny: make the planner cost a full scan as on a fleet's table.
      await tx.execute(sql`set local enable_seqscan = off`);
      const explained: string[] = [];
      // Runs each operation's own query under EXPLAIN.
      const explaining = {
        execute: async (query: SQL) => {
          const rows = await tx.execute<{ "QUERY PLAN": string }>(sql`explain ${query}`);
          explained.push(rows.map((row) => row["QUERY PLAN"]).join("\n"));
          return [];
        },
      } as unknown as DatabaseOrTransaction;
      await countFleetSessionsToday({ db: explaining, actor: staff, now: new Date() });
      await listFleetDays({ db: explaining, actor: staff, now: new Date() });
      return explained;
    });
    const [tiles, chart] = plans;
    expect(tiles).toContain("sync_sessions_finished_idx");
    expect(tiles).toContain("sync_sessions_one_open");
    expect(chart).toContain("sync_sessions_finished_idx");
    expect(chart).toContain("sync_sessions_created_idx");
    for (const plan of plans) expect(plan).not.toContain("Seq Scan on sync_sessions");
  });
});

describe("the fleet chart's durations", () => {
  it("puts a session's duration on the UTC day it ended, its count on the day it was created", async () => {
    const now = new Date("2032-06-10T12:00:00Z");
    const location = await createFleetLocation(db, { name: "Chart overnight" });
    // Created 2032-06-08 23:00, started 2032-06-09 23:50, ended 2032-06-10 00:10 (UTC): 20 minutes.
    const session = await createFleetSession(db, { locationId: location.id, status: "succeeded", createdAt: new Date("2032-06-08T23:00:00Z") });
    await db
      .update(syncSessions)
      .set({ startedAt: new Date("2032-06-09T23:50:00Z"), finishedAt: new Date("2032-06-10T00:10:00Z") })
      .where(eq(syncSessions.id, session.id));
    const days = Object.fromEntries((await listFleetDays({ db, actor: staff, now })).map((day) => [day.day, day]));
    expect(days["2032-06-08"]).toEqual({ day: "2032-06-08", sessions: 1, failed: 0, medianDurationMs: null, p90DurationMs: null });
    expect(days["2032-06-09"]).toEqual({ day: "2032-06-09", sessions: 0, failed: 0, medianDurationMs: null, p90DurationMs: null });
    expect(days["2032-06-10"]).toEqual({ day: "2032-06-10", sessions: 0, failed: 0, medianDurationMs: 1_200_000, p90DurationMs: 1_200_000 });
  });
});

import type { FleetTodayCounts } from "./fleet-session-stats";

export interface FleetTodayTile {
  key: keyof FleetTodayCounts;
  label: string;
  value: number;
  /** The session list it counts: the number is that list's length. */
  href: string;
}

/** The fleet view's tiles. `today`: the current UTC day (YYYY-MM-DD), the day countFleetSessionsToday counted. */
export function fleetTodayTiles(counts: FleetTodayCounts, today: string): FleetTodayTile[] {
  return [
    { key: "succeeded", label: "Succeeded today", value: counts.succeeded, href: `/sessions?status=succeeded&ended=${today}` },
    { key: "failed", label: "Failed today", value: counts.failed, href: `/sessions?status=failed&ended=${today}` },
    { key: "running", label: "Running now", value: counts.running, href: "/sessions?status=running" },
    // At the daily sync time most of the fleet waits for a worker: counted apart from those running.
    { key: "queued", label: "Queued now", value: counts.queued, href: "/sessions?status=queued" },
  ];
}

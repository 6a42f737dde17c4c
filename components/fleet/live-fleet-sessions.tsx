"use client";

import { useQuery } from "@tanstack/react-query";
import type { FleetSessionQuery } from "@/lib/fleet/fleet-inputs";
import { fleetSessionsQueryOptions } from "@/lib/queries/fleet-queries";
import { FleetSessionsTable } from "./fleet-sessions-table";

/** /sessions' table from its live query: polled while a session runs, and now and then on the newest page for new sessions. */
export function LiveFleetSessions({ query, filtered }: { query: FleetSessionQuery; filtered: boolean }) {
  const { data } = useQuery(fleetSessionsQueryOptions(query));
  if (!data) return null;
  return data.items.length === 0 ? (
    <p className="py-8 text-center text-sm text-slate-600">{filtered ? "No sessions match these filters." : "No sync sessions yet."}</p>
  ) : (
    <FleetSessionsTable items={data.items} />
  );
}

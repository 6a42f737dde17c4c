"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { FleetSessionQuery } from "@/lib/fleet/fleet-inputs";
import { fleetSessionsQueryOptions } from "@/lib/queries/fleet-queries";
import { FleetSessionsTable } from "./fleet-sessions-table";

/** /sessions' table from its live query: polled while a session runs, and now and then on the newest page for new sessions. */
/** `empty`: what the page shows when no session matches (the server decides the message and the action). */
export function LiveFleetSessions({ query, empty }: { query: FleetSessionQuery; empty: ReactNode }) {
  const { data } = useQuery(fleetSessionsQueryOptions(query));
  if (!data) return null;
  return data.items.length === 0 ? empty : <FleetSessionsTable items={data.items} />;
}

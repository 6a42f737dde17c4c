import { queryOptions } from "@tanstack/react-query";
import type { FleetMatrixQuery, FleetSessionQuery } from "@/lib/fleet/fleet-inputs";
import { FleetMatrixPageResponse } from "@/lib/fleet/fleet-matrix-responses";
import { FleetSessionPageResponse } from "@/lib/fleet/fleet-session-responses";
import { fetchParsed, LIST_IDLE_POLL_MS, LIVE_POLL_MS } from "./fetch-parsed";
import { queryKeys } from "./query-keys";
import { isInFlight } from "./session-queries";

function searchOf(query: object): string {
  return new URLSearchParams(Object.entries(query).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]]))).toString();
}

/** A page of the fleet matrix (/fleet); polled each second while a location of the page syncs, now and then otherwise. */
export function fleetMatrixQueryOptions(query: Partial<FleetMatrixQuery>) {
  return queryOptions({
    queryKey: queryKeys.fleetMatrix(query),
    queryFn: () => fetchParsed(`/api/fleet?${searchOf(query)}`, FleetMatrixPageResponse),
    refetchInterval: (state) =>
      state.state.data?.rows.some((row) => row.latestSession && isInFlight(row.latestSession.status)) ? LIVE_POLL_MS : LIST_IDLE_POLL_MS,
  });
}

/** A page of sessions across locations (/sessions); polled each second while one of them is queued or running. */
export function fleetSessionsQueryOptions(query: Partial<FleetSessionQuery>) {
  return queryOptions({
    queryKey: queryKeys.fleetSessions(query),
    queryFn: () => fetchParsed(`/api/sessions?${searchOf(query)}`, FleetSessionPageResponse),
    refetchInterval: (state) =>
      state.state.data?.items.some((item) => isInFlight(item.status)) ? LIVE_POLL_MS : query.after ? false : LIST_IDLE_POLL_MS,
  });
}

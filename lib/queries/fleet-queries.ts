import { queryOptions } from "@tanstack/react-query";
import type { FleetSessionQuery } from "@/lib/fleet/fleet-inputs";
import { FleetSessionPageResponse } from "@/lib/fleet/fleet-session-responses";
import { fetchParsed, LIST_IDLE_POLL_MS, LIVE_POLL_MS } from "./fetch-parsed";
import { queryKeys } from "./query-keys";
import { isInFlight } from "./session-queries";

/** A page of sessions across locations (/sessions); polled each second while one of them is queued or running. */
export function fleetSessionsQueryOptions(query: Partial<FleetSessionQuery>) {
  const search = new URLSearchParams(Object.entries(query).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])));
  return queryOptions({
    queryKey: queryKeys.fleetSessions(query),
    queryFn: () => fetchParsed(`/api/sessions?${search.toString()}`, FleetSessionPageResponse),
    refetchInterval: (state) =>
      state.state.data?.items.some((item) => isInFlight(item.status)) ? LIVE_POLL_MS : query.after ? false : LIST_IDLE_POLL_MS,
  });
}

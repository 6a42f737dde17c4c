import { queryOptions } from "@tanstack/react-query";
import { LocationConnectionResponse, type LocationConnection } from "@/lib/locations/location-response";
import type { SessionHistoryItem } from "@/lib/sync/read-session-history";
import { SessionHistoryResponse } from "@/lib/sync/session-responses";
import { SessionView } from "@/lib/sync/session-view";
import { fetchParsed, LIVE_POLL_MS } from "./fetch-parsed";
import { queryKeys } from "./query-keys";
import { isInFlight } from "./session-queries";

/**
 * Everything the location page shows about its connection and its sync sessions, read as one snapshot so that
 * no card can disagree with another: `latest` is the newest session, and while it is in flight `open` is its
 * whole view, from which `latest` takes its status and steps.
 */
export interface LocationLiveState {
  location: LocationConnection;
  latest: SessionHistoryItem | null;
  open: SessionView | null;
}

export function locationLiveStateOf(location: LocationConnection, latest: SessionHistoryItem | null, open: SessionView | null): LocationLiveState {
  if (!latest || !open || open.session.id !== latest.id) return { location, latest, open: null };
  const { session, steps } = open;
  return {
    location,
    // Read after the history: a session that ended in between is the latest, and nothing shows it as in flight.
    open: isInFlight(session.status) ? open : null,
    latest: {
      ...latest,
      status: session.status,
      error: session.error,
      upstreamOpen: session.upstreamOpen,
      startedAt: session.startedAt,
      finishedAt: session.finishedAt,
      steps: steps.map(({ name, status, recordsInvalid, recordsExcluded }) => ({ name, status, recordsInvalid, recordsExcluded })),
    },
  };
}

/** The session was in flight when the history was read and had ended when its view was: the reads straddle its end. */
export const endedBetweenReads = (open: SessionView | null) => open !== null && !isInFlight(open.session.status);

async function fetchLocationLiveState(locationId: string): Promise<LocationLiveState> {
  for (let read = 1; ; read++) {
    const [{ location }, history] = await Promise.all([
      fetchParsed(`/api/locations/${locationId}`, LocationConnectionResponse),
      fetchParsed(`/api/locations/${locationId}/sessions?limit=1`, SessionHistoryResponse),
    ]);
    const latest = history.items[0] ?? null;
    const open = latest && isInFlight(latest.status) ? await fetchParsed(`/api/sessions/${latest.id}`, SessionView) : null;
    // The location was read before the session ended (the attention it set may be missing): read everything again.
    if (read < 3 && endedBetweenReads(open)) continue;
    return locationLiveStateOf(location, latest, open);
  }
}

/** The location page's live state; polled once a second while its newest session is queued or running. */
export function locationLiveQueryOptions(locationId: string) {
  return queryOptions({
    queryKey: queryKeys.locationLive(locationId),
    queryFn: () => fetchLocationLiveState(locationId),
    refetchInterval: (query) => (query.state.data?.open ? LIVE_POLL_MS : false),
  });
}

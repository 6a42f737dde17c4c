import { queryOptions } from "@tanstack/react-query";
import type { SessionHistoryQuery } from "@/lib/sync/session-inputs";
import { SessionHistoryResponse } from "@/lib/sync/session-responses";
import { AttemptExchangeView, SessionView } from "@/lib/sync/session-view";
import { fetchParsed, LIST_IDLE_POLL_MS, LIVE_POLL_MS } from "./fetch-parsed";
import { queryKeys } from "./query-keys";

export function isInFlight(status: string): boolean {
  return status === "queued" || status === "running";
}

/** One session with its steps, items and attempts; polled while it is queued or running. */
export function sessionQueryOptions(sessionId: string) {
  return queryOptions({
    queryKey: queryKeys.session(sessionId),
    queryFn: () => fetchParsed(`/api/sessions/${sessionId}`, SessionView),
    refetchInterval: (query) => (query.state.data && isInFlight(query.state.data.session.status) ? LIVE_POLL_MS : false),
  });
}

/** One attempt's recorded request and response, read when its panel opens; an attempt never changes once recorded. */
export function attemptExchangeQueryOptions(sessionId: string, attemptId: number) {
  return queryOptions({
    queryKey: queryKeys.sessionAttempt(sessionId, attemptId),
    queryFn: () => fetchParsed(`/api/sessions/${sessionId}/attempts/${attemptId}`, AttemptExchangeView),
    staleTime: Infinity,
  });
}

/** A page of a location's session history; polled each second while one of its sessions is in flight. */
export function locationSessionsQueryOptions(locationId: string, query: Partial<SessionHistoryQuery>) {
  const search = new URLSearchParams(Object.entries(query).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])));
  return queryOptions({
    queryKey: queryKeys.locationSessions(locationId, query),
    queryFn: () => fetchParsed(`/api/locations/${locationId}/sessions?${search.toString()}`, SessionHistoryResponse),
    refetchInterval: (state) =>
      state.state.data?.items.some((item) => isInFlight(item.status)) ? LIVE_POLL_MS : query.after || query.before ? false : LIST_IDLE_POLL_MS,
  });
}

import { queryOptions } from "@tanstack/react-query";
import { PreviewRunsResponse, type PreviewRunsState } from "@/lib/preview/preview-runs-response";
import { fetchParsed, LIVE_POLL_MS } from "./fetch-parsed";
import { queryKeys } from "./query-keys";

/**
 * The location's preview runs; polled while a run is in flight, or while `countedAt` is still the one the page was
 * rendered with (the counts are being counted again after a sync: `awaitCountsAfter`).
 */
export function previewRunsQueryOptions(locationId: string, awaitCountsAfter?: { countedAt: string | null }) {
  const stillWaiting = (data: PreviewRunsState | undefined) =>
    Boolean(data?.active) || (awaitCountsAfter !== undefined && (data?.shown?.countedAt ?? null) === awaitCountsAfter.countedAt);
  return queryOptions({
    queryKey: queryKeys.previewRuns(locationId),
    queryFn: () => fetchParsed(`/api/locations/${locationId}/preview`, PreviewRunsResponse),
    refetchInterval: (query) => (stillWaiting(query.state.data) ? LIVE_POLL_MS : false),
  });
}

import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { PreviewRecordDetailResponse, PreviewRecordsResponse } from "@/lib/preview/preview-record-responses";
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

/** The records table's part of the preview page's URL, without defaults: the same key on the server and in the browser. */
export interface PreviewRecordsQuery {
  type: string;
  q?: string;
  status?: string;
  sort?: string;
  page?: number;
  cause?: string;
}

/** The records query of a URL's parameters (the server checks them; a bad one is a 422 the table shows). */
export function previewRecordsQueryOf(type: string, params: { get(name: string): string | null }): PreviewRecordsQuery {
  const query: PreviewRecordsQuery = { type };
  const q = params.get("q")?.trim();
  if (q) query.q = q;
  for (const name of ["status", "cause"] as const) {
    const value = params.get(name);
    if (value) query[name] = value;
  }
  const sort = params.get("sort");
  if (sort && sort !== "source") query.sort = sort;
  const page = Number(params.get("page") ?? 0);
  if (Number.isInteger(page) && page > 0) query.page = page;
  return query;
}

/** A page of the shown preview's records (or removed records), for the filters in the URL. A preview never changes under a run id. */
export function previewRecordsQueryOptions(locationId: string, runId: string, query: PreviewRecordsQuery) {
  const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  return queryOptions({
    queryKey: queryKeys.previewRecords(locationId, runId, query),
    queryFn: () => fetchParsed(`/api/locations/${locationId}/preview/records?${search.toString()}`, PreviewRecordsResponse),
    placeholderData: keepPreviousData,
  });
}

/** One record beside its source rows, read when its side panel opens. */
export function previewRecordQueryOptions(locationId: string, type: string, seq: number) {
  return queryOptions({
    queryKey: queryKeys.previewRecord(locationId, type, seq),
    queryFn: () => fetchParsed(`/api/locations/${locationId}/preview/records/${seq}?type=${encodeURIComponent(type)}`, PreviewRecordDetailResponse),
  });
}

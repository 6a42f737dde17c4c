"use client";

import { useQuery } from "@tanstack/react-query";
import { locationSessionsQueryOptions } from "@/lib/queries/session-queries";
import type { SessionHistoryQuery } from "@/lib/sync/session-inputs";
import { SessionHistoryTable } from "./session-history-table";

/** A page of a location's sessions from its live query: polled while one of them runs, read again after every sync action. */
export function LiveSessionHistory({ locationId, query, timeZone }: { locationId: string; query: SessionHistoryQuery; timeZone: string }) {
  const { data, dataUpdatedAt } = useQuery(locationSessionsQueryOptions(locationId, query));
  if (!data) return null;
  return data.items.length ? (
    <SessionHistoryTable items={data.items} timeZone={timeZone} now={dataUpdatedAt} />
  ) : (
    <p className="py-8 text-center text-sm text-slate-600">No sync sessions match.</p>
  );
}

"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { locationSessionsQueryOptions } from "@/lib/queries/session-queries";
import type { SessionHistoryQuery } from "@/lib/sync/session-inputs";
import { SessionHistoryTable } from "./session-history-table";

/** A page of a location's sessions from its live query: polled while one of them runs, read again after every sync action. */
/** `empty`: what the page shows when no session matches (the server decides the message and the action). */
export function LiveSessionHistory({
  locationId,
  query,
  timeZone,
  empty,
}: {
  locationId: string;
  query: SessionHistoryQuery;
  timeZone: string;
  empty: ReactNode;
}) {
  const { data, dataUpdatedAt } = useQuery(locationSessionsQueryOptions(locationId, query));
  if (!data) return null;
  return data.items.length ? <SessionHistoryTable items={data.items} timeZone={timeZone} now={dataUpdatedAt} /> : empty;
}

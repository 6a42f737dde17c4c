"use client";

import { useQuery } from "@tanstack/react-query";
import { SyncPanel } from "@/components/sessions/sync-panel";
import { locationLiveQueryOptions } from "@/lib/queries/location-live-queries";

/** The location page header's Sync now and Full resync, enabled from the page's live query. */
export function LocationSyncActions({ locationId, timeZone, outsideWindow }: { locationId: string; timeZone: string; outsideWindow: boolean }) {
  const { data } = useQuery(locationLiveQueryOptions(locationId));
  if (!data) return null;
  const disabledReason = !data.location.connected
    ? "Connect the location first: syncs use its access token."
    : data.open
      ? "A sync is in progress."
      : null;
  return <SyncPanel locationId={locationId} timeZone={timeZone} outsideWindowAtRender={outsideWindow} disabledReason={disabledReason} />;
}

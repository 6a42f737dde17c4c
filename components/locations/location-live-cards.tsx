"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { LatestSessionCard } from "@/components/sessions/latest-session-card";
import { SyncCard } from "@/components/sessions/sync-card";
import type { Permissions } from "@/lib/auth/permissions";
import { locationLiveQueryOptions } from "@/lib/queries/location-live-queries";
import { isSessionAttentionReason } from "@/lib/sync/session-attention";
import { ConnectionCard } from "./connection-card";
import { NextRun } from "./next-run";

/**
 * The location page's cards that show the connection or a sync session, all from one live query
 * (lib/queries/location-live-queries), so that none can contradict another while a session runs, stops or resumes.
 * `schedule` and `owners` are the server-rendered cards between them.
 */
export function LocationLiveCards({
  locationId,
  timeZone,
  permissions,
  nextRunAt,
  archived,
  schedule,
  owners,
}: {
  locationId: string;
  timeZone: string;
  permissions: Permissions;
  nextRunAt: string;
  archived: boolean;
  schedule: ReactNode;
  owners: ReactNode;
}) {
  const { data, dataUpdatedAt } = useQuery(locationLiveQueryOptions(locationId));
  // The server page put the state in the cache (components/queries/prefetched): it is there from the first render.
  if (!data) return null;
  const { location, latest, open } = data;
  const pause = location.schedulePausedAt
    ? { at: location.schedulePausedAt, byEmail: location.schedulePausedByEmail, reason: location.schedulePauseReason }
    : null;
  const nextRun = <NextRun nextRunAt={nextRunAt} timeZone={timeZone} archived={archived} connected={location.connected} pause={pause} />;
  const sessionAttention = isSessionAttentionReason(location.attentionReason) ? location.attentionReason : null;
  return (
    <>
      <ConnectionCard location={location} timeZone={timeZone} canAct={permissions["location.connect"]} />
      {schedule}
      <LatestSessionCard
        locationId={locationId}
        timeZone={timeZone}
        latest={latest}
        attention={sessionAttention}
        permissions={permissions}
        now={dataUpdatedAt}
      />
      <SyncCard
        location={{ id: locationId, timeZone, connected: location.connected }}
        openSession={open}
        permissions={permissions}
        nextRun={nextRun}
        now={dataUpdatedAt}
      />
      {owners}
    </>
  );
}

"use client";

import { useQuery } from "@tanstack/react-query";
import { SchedulePauseControl } from "@/components/fleet/schedule-pause-control";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { locationLiveQueryOptions } from "@/lib/queries/location-live-queries";
import { NextRun } from "./next-run";

/** The daily schedule from the page's live query: the next run, or who paused it, since when and why; pause and resume. */
export function ScheduleCard({
  location,
  nextRunAt,
  syncWindow,
  canPause,
  archived = false,
}: {
  location: { id: string; name: string; timeZone: string; syncTime: string; sourceKey: string | null };
  nextRunAt: string;
  syncWindow: { start: string; end: string };
  canPause: boolean;
  /** An archived location has no schedule. */
  archived?: boolean;
}) {
  const { data } = useQuery(locationLiveQueryOptions(location.id));
  if (!data) return null;
  const { schedulePausedAt, schedulePausedByEmail, schedulePauseReason } = data.location;
  const pause = schedulePausedAt ? { at: schedulePausedAt, byEmail: schedulePausedByEmail, reason: schedulePauseReason } : null;
  return (
    <Card role="region" aria-labelledby="schedule-title">
      <CardHeader className="flex-row items-start justify-between gap-2">
        <div className="flex flex-col gap-1.5">
          <CardTitle id="schedule-title">Schedule</CardTitle>
          <CardDescription>
            Daily, inside the upstream&apos;s recommended window of {syncWindow.start}–{syncWindow.end} in the business&apos;s time zone.
          </CardDescription>
        </div>
        {canPause ? <SchedulePauseControl locationId={location.id} locationName={location.name} paused={pause !== null} /> : null}
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-600">Daily sync</dt>
          <dd>
            {location.syncTime} {location.timeZone}
          </dd>
          <dt className="text-slate-600">Next sync</dt>
          <dd data-testid="next-run">
            <NextRun
              nextRunAt={nextRunAt}
              timeZone={location.timeZone}
              archived={archived}
              connected={data.location.connected}
              pause={pause}
              detailed
            />
          </dd>
          <dt className="text-slate-600">Source</dt>
          <dd>{location.sourceKey ?? "not set"}</dd>
        </dl>
      </CardContent>
    </Card>
  );
}

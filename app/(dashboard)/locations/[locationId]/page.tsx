import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/layout/page-header";
import { ConnectionCard } from "@/components/locations/connection-card";
import { OwnersCard } from "@/components/locations/owners-card";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { getDatabase } from "@/db/client";
import { requirePageUser } from "@/lib/auth/guard";
import { formatDateTime } from "@/lib/format/date-time";
import { listLocationOwners } from "@/lib/locations/list-location-owners";
import { loadPageLocation } from "@/lib/locations/load-page-location";
import { SYNC_WINDOW } from "@/lib/locations/location-inputs";
import { nextScheduledSync } from "@/lib/locations/next-sync";

export const metadata: Metadata = { title: "Location" };

export default async function LocationPage({ params }: { params: Promise<{ locationId: string }> }) {
  const user = await requirePageUser();
  const location = await loadPageLocation(user, (await params).locationId);
  const isEditor = user.role === "admin" || user.role === "support";
  const canConnect = isEditor || user.role === "owner";
  const owners = user.role === "owner" ? [] : await listLocationOwners(getDatabase(), location.id);
  const nextSync = nextScheduledSync(location.syncTime, location.timeZone);
  return (
    <>
      <PageHeader
        title={location.name}
        description={`${location.environment} · upstream location ${location.upstreamLocationId ?? "not set"} · ${location.timeZone} · ${location.country}${location.automotive ? " · automotive" : ""}`}
        actions={
          isEditor ? (
            <Link href={`/locations/${location.id}/edit`} className={buttonVariants({ variant: "secondary" })}>
              Edit location
            </Link>
          ) : null
        }
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <ConnectionCard location={location} timeZone={location.timeZone} canAct={canConnect} />
        <Card role="region" aria-labelledby="schedule-title">
          <CardHeader>
            <CardTitle id="schedule-title">Schedule</CardTitle>
            <CardDescription>
              Daily, inside the upstream&apos;s recommended window of {SYNC_WINDOW.start}–{SYNC_WINDOW.end} in the business&apos;s time zone.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-600">Daily sync</dt>
              <dd>
                {location.syncTime} {location.timeZone}
              </dd>
              <dt className="text-slate-600">Next run</dt>
              <dd>
                {formatDateTime(nextSync, location.timeZone)} ({location.timeZone})
              </dd>
              <dt className="text-slate-600">Source</dt>
              <dd>{location.sourceKey ?? "not set"}</dd>
            </dl>
          </CardContent>
        </Card>
        <Card role="region" aria-labelledby="latest-session-title">
          <CardHeader>
            <CardTitle id="latest-session-title">Latest session</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-slate-600">No sync session has run for this location yet.</p>
          </CardContent>
        </Card>
        <Card role="region" aria-labelledby="preview-sync-title">
          <CardHeader>
            <CardTitle id="preview-sync-title">Preview and sync</CardTitle>
            <CardDescription>What a sync would send, checked record by record, before anything is sent.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <Link href={`/locations/${location.id}/preview`} className={buttonVariants({ variant: "secondary", className: "self-start" })}>
              Open the preview
            </Link>
            <p className="text-sm text-slate-600">
              {location.connected ? "Starting, resuming and cancelling syncs will live here." : "Connect the location first: syncs use its access token."}
            </p>
          </CardContent>
        </Card>
        {user.role === "owner" ? null : <OwnersCard locationId={location.id} owners={owners} canInvite={isEditor} />}
      </div>
    </>
  );
}

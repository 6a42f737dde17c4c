import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/layout/page-header";
import { LocationLiveCards } from "@/components/locations/location-live-cards";
import { LocationSyncActions } from "@/components/locations/location-sync-actions";
import { ReplayDialog } from "@/components/sessions/replay-dialog";
import { OwnerLocationView } from "@/components/locations/owner-location-view";
import { LifecycleCard } from "@/components/locations/lifecycle-card";
import { OwnersCard } from "@/components/locations/owners-card";
import { ScheduleCard } from "@/components/locations/schedule-card";
import { Prefetched } from "@/components/queries/prefetched";
import { buttonVariants } from "@/components/ui/button";
import { getDatabase } from "@/db/client";
import { requirePageUser } from "@/lib/auth/guard";
import { can, permissionsOf } from "@/lib/auth/permissions";
import { getConfig } from "@/lib/config/config";
import { ownerLocationViewOf } from "@/lib/locations/get-location";
import { latestSessionsOf } from "@/lib/locations/latest-sessions";
import { listLocationOwners } from "@/lib/locations/list-location-owners";
import { loadPageLocation } from "@/lib/locations/load-page-location";
import { SYNC_WINDOW } from "@/lib/locations/location-inputs";
import { permissionsAtArchivedLocation } from "@/lib/locations/location-lifecycle";
import { LocationConnectionResponse } from "@/lib/locations/location-response";
import { lastScheduledDaysOf, nextScheduledSync } from "@/lib/locations/next-sync";
import { endedBetweenReads, locationLiveStateOf } from "@/lib/queries/location-live-queries";
import { queryKeys } from "@/lib/queries/query-keys";
import { isInFlight } from "@/lib/queries/session-queries";
import { listSessionHistory } from "@/lib/sync/read-session-history";
import { getSessionView } from "@/lib/sync/read-session-view";
import { serializeDates } from "@/lib/sync/serialize-dates";
import { SessionHistoryQuery } from "@/lib/sync/session-inputs";
import { isOutsideSyncWindow } from "@/lib/sync/sync-window";

export const metadata: Metadata = { title: "Location" };

export default async function LocationPage({ params }: { params: Promise<{ locationId: string }> }) {
  const user = await requirePageUser({ action: "location.view" });
  const location = await loadPageLocation(user, (await params).locationId);
  const lastScheduledFor = (await lastScheduledDaysOf(getDatabase(), [location.id])).get(location.id) ?? null;
  const nextSync = nextScheduledSync(location.syncTime, location.timeZone, new Date(), lastScheduledFor);
  // Whoever may not read sync sessions (a business owner) gets the location in plain words instead of the operator's page.
  if (!can(user, "session.view")) {
    const latest = (await latestSessionsOf(getDatabase(), [location.id])).get(location.id) ?? null;
    return (
      <>
        <PageHeader title={location.name} description="Your location's connection to the Marketing Automation Service and its daily sync." />
        <OwnerLocationView
          location={ownerLocationViewOf(location)}
          latest={latest}
          nextRunAt={nextSync.toISOString()}
          canConnect={can(user, "location.connect")}
          supportEmail={getConfig().SUPPORT_EMAIL}
        />
      </>
    );
  }
  // The location is one the user may see (loadPageLocation): the role decides what they may do with it.
  const archived = location.archivedAt !== null;
  const permissions = archived ? permissionsAtArchivedLocation(permissionsOf(user)) : permissionsOf(user);
  const showsOwners = can(user, "location.owners.view");
  const owners = showsOwners ? await listLocationOwners({ db: getDatabase(), actor: user }, { locationId: location.id }) : [];
  const [latest = null] = (
    await listSessionHistory({ db: getDatabase(), actor: user }, { ...SessionHistoryQuery.parse({ limit: 1 }), locationId: location.id })
  ).items;
  const open = latest && isInFlight(latest.status) ? await getSessionView({ db: getDatabase(), actor: user }, { sessionId: latest.id }) : null;
  // The same snapshot the browser's live query reads (lib/queries/location-live-queries), parsed with the same schema; a
  // session that ended after the location was read may have set its attention since.
  const current = endedBetweenReads(open) ? await loadPageLocation(user, location.id) : location;
  const { location: connection } = LocationConnectionResponse.parse({ location: serializeDates(current) });
  const live = locationLiveStateOf(connection, latest, open);
  const outsideWindow = isOutsideSyncWindow(location.timeZone);
  return (
    <Prefetched entries={[{ queryKey: queryKeys.locationLive(location.id), data: live }]}>
      <PageHeader
        title={archived ? `${location.name} (archived)` : location.name}
        description={`${location.environment} · upstream location ${location.upstreamLocationId ?? "not set"} · ${location.timeZone} · ${location.country}${location.automotive ? " · automotive" : ""}`}
        actions={
          <div className="flex flex-wrap items-start gap-2">
            {permissions["sync.start"] ? (
              <LocationSyncActions locationId={location.id} timeZone={location.timeZone} outsideWindow={outsideWindow} />
            ) : null}
            {permissions["sync.replay"] ? <ReplayDialog locationId={location.id} automotive={location.automotive} /> : null}
            {permissions["location.edit"] ? (
              <Link href={`/locations/${location.id}/edit`} className={buttonVariants({ variant: "secondary" })}>
                Edit location
              </Link>
            ) : null}
          </div>
        }
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <LocationLiveCards
          locationId={location.id}
          timeZone={location.timeZone}
          permissions={permissions}
          nextRunAt={nextSync.toISOString()}
          archived={archived}
          schedule={
            <ScheduleCard
              location={{
                id: location.id,
                name: location.name,
                timeZone: location.timeZone,
                syncTime: location.syncTime,
                sourceKey: location.sourceKey,
              }}
              nextRunAt={nextSync.toISOString()}
              syncWindow={SYNC_WINDOW}
              canPause={permissions["schedule.pause"]}
              archived={archived}
            />
          }
          owners={showsOwners ? <OwnersCard locationId={location.id} owners={owners} canInvite={permissions["location.owners.invite"]} /> : null}
        />
        {permissions["location.archive"] || permissions["location.environment.move"] ? (
          <LifecycleCard
            location={{
              id: location.id,
              name: location.name,
              timeZone: location.timeZone,
              environment: location.environment,
              upstreamLocationId: location.upstreamLocationId,
              archivedAt: location.archivedAt?.toISOString() ?? null,
              archivedByEmail: location.archivedByEmail,
            }}
            can={{ archive: permissions["location.archive"], delete: permissions["location.delete"], move: permissions["location.environment.move"] }}
          />
        ) : null}
      </div>
    </Prefetched>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { FleetCharts } from "@/components/fleet/fleet-charts";
import { FleetSessionFilters } from "@/components/fleet/fleet-session-filters";
import { LiveFleetSessions } from "@/components/fleet/live-fleet-sessions";
import { FleetTodayCountsView } from "@/components/fleet/fleet-today-counts";
import { hrefWith, queryInputOf, type SearchParams } from "@/lib/http/search-params";
import { PageHeader } from "@/components/layout/page-header";
import { Prefetched } from "@/components/queries/prefetched";
import { HistoryIcon } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { buttonVariants } from "@/components/ui/button";
import { EmptyState, FilteredEmptyState } from "@/components/ui/empty-state";
import { Card, CardContent } from "@/components/ui/card";
import { getDatabase } from "@/db/client";
import { requirePageUser } from "@/lib/auth/guard";
import { can, seesOwnLocationsOnly } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { FleetSessionQuery } from "@/lib/fleet/fleet-inputs";
import { FleetSessionPageResponse } from "@/lib/fleet/fleet-session-responses";
import { countFleetSessionsToday, listFleetDays } from "@/lib/fleet/fleet-session-stats";
import { listFleetSessions, type FleetSessionPage } from "@/lib/fleet/list-fleet-sessions";
import { queryKeys } from "@/lib/queries/query-keys";

export const metadata: Metadata = { title: "Sessions" };

export default async function SessionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  // Everyone may look; owners see their own locations' sessions only (filtered in every query).
  const user = await requirePageUser({ action: "session.view" });
  const parsed = FleetSessionQuery.safeParse(queryInputOf(await searchParams));
  let query = parsed.success ? parsed.data : FleetSessionQuery.parse({});
  let notice = parsed.success ? null : "Some filters were not valid and were ignored.";
  const ctx = { db: getDatabase(), actor: user };
  let page: FleetSessionPage;
  try {
    page = await listFleetSessions(ctx, query);
  } catch (error) {
    if (!(error instanceof DomainError && error.code === "INVALID")) throw error;
    query = { ...query, after: undefined };
    notice = "That page link is no longer valid; showing the first page.";
    page = await listFleetSessions(ctx, query);
  }
  const [counts, days] = await Promise.all([countFleetSessionsToday(ctx), listFleetDays(ctx)]);
  const filters = {
    q: query.q,
    status: query.status,
    trigger: query.trigger,
    environment: query.environment,
    ended: query.ended,
    created: query.created,
  };
  const empty = Object.values(filters).some(Boolean) ? (
    <FilteredEmptyState message="No sessions match these filters." clearHref="/sessions" />
  ) : (
    <EmptyState
      icon={HistoryIcon}
      message="No sync sessions yet: a session appears here when a location syncs, on its daily schedule or with Sync now on its page."
      action={
        can(user, "location.view") ? (
          <Link href="/locations" className={buttonVariants({ variant: "secondary" })}>
            Go to locations
          </Link>
        ) : null
      }
    />
  );

  return (
    <>
      <PageHeader
        title="Sessions"
        description={
          seesOwnLocationsOnly(user)
            ? "The sync sessions of your locations: running first, then failures that need attention, then the newest."
            : "Every sync session across locations: running first, then failures that need attention, then the newest."
        }
      />
      <div className="mb-4 flex flex-col gap-4">
        <FleetTodayCountsView counts={counts} today={new Date().toISOString().slice(0, 10)} />
        <Card>
          <CardContent>
            <FleetCharts days={days} />
          </CardContent>
        </Card>
        <Card>
          <CardContent>
            <FleetSessionFilters query={query} />
          </CardContent>
        </Card>
      </div>
      {notice ? (
        <Alert tone="error" className="mb-4">
          {notice}
        </Alert>
      ) : null}
      <Card>
        <CardContent className="flex flex-col gap-4">
          {/* The same JSON the browser's live query reads (GET /api/sessions), parsed with the same schema. */}
          <Prefetched
            entries={[{ queryKey: queryKeys.fleetSessions(query), data: FleetSessionPageResponse.parse(JSON.parse(JSON.stringify(page))) }]}
          >
            <LiveFleetSessions query={query} empty={empty} />
          </Prefetched>
          {query.after || page.nextCursor ? (
            <nav aria-label="Pages" className="flex justify-between text-sm">
              {query.after ? (
                <Link href={hrefWith("/sessions", filters, {})} className="text-blue-700 underline">
                  First page
                </Link>
              ) : (
                <span />
              )}
              {page.nextCursor ? (
                <Link href={hrefWith("/sessions", filters, { after: page.nextCursor })} className="text-blue-700 underline" rel="next">
                  Next
                </Link>
              ) : null}
            </nav>
          ) : null}
        </CardContent>
      </Card>
    </>
  );
}

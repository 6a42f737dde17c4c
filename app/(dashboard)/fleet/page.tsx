import type { Metadata } from "next";
import Link from "next/link";
import { MapPinIcon } from "lucide-react";
import { FleetMatrixFilters } from "@/components/fleet/fleet-matrix-filters";
import { LiveFleetMatrix } from "@/components/fleet/live-fleet-matrix";
import { MatrixLegend } from "@/components/fleet/matrix-cell";
import { queryInputOf, type SearchParams } from "@/lib/http/search-params";
import { PageHeader } from "@/components/layout/page-header";
import { Prefetched } from "@/components/queries/prefetched";
import { Alert } from "@/components/ui/alert";
import { buttonVariants } from "@/components/ui/button";
import { EmptyState, FilteredEmptyState } from "@/components/ui/empty-state";
import { Card, CardContent } from "@/components/ui/card";
import { getDatabase } from "@/db/client";
import { requirePageUser } from "@/lib/auth/guard";
import { can } from "@/lib/auth/permissions";
import { FleetMatrixQuery } from "@/lib/fleet/fleet-inputs";
import { loadFleetMatrix } from "@/lib/fleet/fleet-matrix";
import { FleetMatrixPageResponse } from "@/lib/fleet/fleet-matrix-responses";
import { queryKeys } from "@/lib/queries/query-keys";
import { freshForHours, matrixStepLabels, matrixSteps } from "@/lib/fleet/step-freshness";

export const metadata: Metadata = { title: "Fleet" };

export default async function FleetPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePageUser({ action: "fleet.view" });
  const parsed = FleetMatrixQuery.safeParse(queryInputOf(await searchParams));
  const query = parsed.success ? parsed.data : FleetMatrixQuery.parse({});
  const matrix = await loadFleetMatrix({ db: getDatabase(), actor: user }, query);
  const freshness = matrixSteps
    .filter((step) => freshForHours[step] <= 48)
    .map((step) => `${matrixStepLabels[step].toLowerCase()} ${freshForHours[step]} h`)
    .join(", ");
  const empty =
    query.q || query.environment ? (
      <FilteredEmptyState message="No locations match. Try another search or clear the filters." clearHref="/fleet" />
    ) : (
      <EmptyState
        icon={MapPinIcon}
        message="No locations yet: once a location is added, its sync steps and how fresh each one is show here."
        action={
          can(user, "location.create") ? (
            <Link href="/locations/new" className={buttonVariants({ variant: "secondary" })}>
              Add a location
            </Link>
          ) : null
        }
      />
    );

  return (
    <>
      <PageHeader
        title="Fleet"
        description={`Every location by sync step: the last outcome of each step and whether it is fresh (${freshness}; the catalogue 7 days). Worst first: needs attention, then failed steps, then stale ones.`}
      />
      <Card className="mb-4">
        <CardContent className="flex flex-col gap-3">
          <FleetMatrixFilters query={query} />
          <MatrixLegend />
        </CardContent>
      </Card>
      {parsed.success ? null : (
        <Alert tone="error" className="mb-4">
          Some filters were not valid and were ignored.
        </Alert>
      )}
      <Card>
        <CardContent className="flex flex-col gap-4">
          {/* The same JSON the browser's live query reads (GET /api/fleet), parsed with the same schema. */}
          <Prefetched entries={[{ queryKey: queryKeys.fleetMatrix(query), data: FleetMatrixPageResponse.parse(JSON.parse(JSON.stringify(matrix))) }]}>
            <LiveFleetMatrix query={query} canPause={can(user, "schedule.pause")} empty={empty} />
          </Prefetched>
        </CardContent>
      </Card>
    </>
  );
}

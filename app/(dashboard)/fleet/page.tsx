import type { Metadata } from "next";
import Link from "next/link";
import { FleetMatrixFilters } from "@/components/fleet/fleet-matrix-filters";
import { FleetMatrixTable } from "@/components/fleet/fleet-matrix-table";
import { MatrixLegend } from "@/components/fleet/matrix-cell";
import { hrefWith, queryInputOf, type SearchParams } from "@/lib/http/search-params";
import { PageHeader } from "@/components/layout/page-header";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent } from "@/components/ui/card";
import { getDatabase } from "@/db/client";
import { requirePageUser } from "@/lib/auth/guard";
import { can } from "@/lib/auth/permissions";
import { FleetMatrixQuery } from "@/lib/fleet/fleet-inputs";
import { loadFleetMatrix } from "@/lib/fleet/fleet-matrix";
import { freshForHours, matrixStepLabels, matrixSteps } from "@/lib/fleet/step-freshness";

export const metadata: Metadata = { title: "Fleet" };

export default async function FleetPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePageUser({ action: "fleet.view" });
  const parsed = FleetMatrixQuery.safeParse(queryInputOf(await searchParams));
  const query = parsed.success ? parsed.data : FleetMatrixQuery.parse({});
  const matrix = await loadFleetMatrix({ db: getDatabase(), actor: user }, query);
  const filters = { q: query.q, environment: query.environment };
  const freshness = matrixSteps
    .filter((step) => freshForHours[step] <= 48)
    .map((step) => `${matrixStepLabels[step].toLowerCase()} ${freshForHours[step]} h`)
    .join(", ");

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
          <p className="text-sm text-slate-600" aria-live="polite">
            {matrix.total === 1 ? "1 location" : `${matrix.total} locations`} · page {matrix.page} of {matrix.pageCount}
          </p>
          {matrix.rows.length === 0 ? (
            <p className="py-8 text-center text-sm text-slate-600">No locations match.</p>
          ) : (
            <FleetMatrixTable rows={matrix.rows} canPause={can(user, "schedule.pause")} />
          )}
          {matrix.pageCount > 1 ? (
            <nav aria-label="Pages" className="flex justify-between text-sm">
              {matrix.page > 1 ? (
                <Link href={hrefWith("/fleet", filters, { page: matrix.page - 1 })} className="text-blue-700 underline" rel="prev">
                  Previous
                </Link>
              ) : (
                <span />
              )}
              {matrix.page < matrix.pageCount ? (
                <Link href={hrefWith("/fleet", filters, { page: matrix.page + 1 })} className="text-blue-700 underline" rel="next">
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

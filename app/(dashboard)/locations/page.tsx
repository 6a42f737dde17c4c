import { pluralize } from "@/lib/format/plural";
import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/layout/page-header";
import { LocationFilters } from "@/components/locations/location-filters";
import { LocationsTable } from "@/components/locations/locations-table";
import { MapPinIcon } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { EmptyState, FilteredEmptyState } from "@/components/ui/empty-state";
import { getDatabase } from "@/db/client";
import { requirePageUser } from "@/lib/auth/guard";
import { can, seesOwnLocationsOnly } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { queryInputOf, type SearchParams } from "@/lib/http/search-params";
import { listLocations, type LocationListPage } from "@/lib/locations/list-locations";
import { LocationListQuery } from "@/lib/locations/location-inputs";

export const metadata: Metadata = { title: "Locations" };

function pageHref(query: LocationListQuery, cursor: { after: string } | { before: string }): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.status) params.set("status", query.status);
  if (query.environment) params.set("environment", query.environment);
  for (const [key, value] of Object.entries(cursor)) params.set(key, value);
  return `/locations?${params.toString()}`;
}

export default async function LocationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePageUser({ action: "location.view" });
  const parsed = LocationListQuery.safeParse(queryInputOf(await searchParams));
  let query = parsed.success ? parsed.data : LocationListQuery.parse({});
  let notice = parsed.success ? null : "Some filters were not valid and were ignored.";
  let page: LocationListPage;
  try {
    page = await listLocations({ db: getDatabase(), actor: user }, query);
  } catch (error) {
    if (!(error instanceof DomainError && error.code === "INVALID")) throw error;
    // A stale or edited page link: keep the filters, start from the first page.
    query = { ...query, after: undefined, before: undefined };
    notice = "That page link is no longer valid; showing the first page.";
    page = await listLocations({ db: getDatabase(), actor: user }, query);
  }
  const canCreate = can(user, "location.create");
  const showDetails = can(user, "location.details.view");
  const canImport = can(user, "location.import");
  const filtered = Boolean(query.q || query.status || query.environment);

  return (
    <>
      <PageHeader
        title="Locations"
        description={
          seesOwnLocationsOnly(user)
            ? "The business locations you manage. Open one to connect it to your Marketing Automation Service account or to see its syncs."
            : "Every business location kept in sync with the Marketing Automation Service."
        }
        actions={
          canCreate || canImport ? (
            <div className="flex flex-wrap gap-2">
              {canImport ? (
                <Link href="/locations/import" className={buttonVariants({ variant: "secondary" })}>
                  Import CSV
                </Link>
              ) : null}
              {canCreate ? (
                <Link href="/locations/new" className={buttonVariants()}>
                  New location
                </Link>
              ) : null}
            </div>
          ) : null
        }
      />
      <Card className="mb-4">
        <CardContent>
          <LocationFilters query={query} showDetails={showDetails} />
        </CardContent>
      </Card>
      {notice ? (
        <Alert tone="error" className="mb-4">
          {notice}
        </Alert>
      ) : null}
      <Card>
        <CardContent className="flex flex-col gap-4">
          <p className="text-sm text-slate-600" aria-live="polite">
            {pluralize(page.total, "location")}
          </p>
          {page.items.length === 0 ? (
            filtered ? (
              <FilteredEmptyState message="No locations match. Try another search or clear the filters." clearHref="/locations" />
            ) : (
              <EmptyState
                icon={MapPinIcon}
                message={
                  seesOwnLocationsOnly(user)
                    ? "No location is shared with you yet: once your account manager adds you to your business, it appears here."
                    : "No locations yet: add a business location to keep it in sync with the Marketing Automation Service."
                }
                action={
                  canCreate ? (
                    <Link href="/locations/new" className={buttonVariants({ variant: "secondary" })}>
                      Add a location
                    </Link>
                  ) : null
                }
              />
            )
          ) : (
            <LocationsTable items={page.items} showDetails={showDetails} />
          )}
          {page.previousCursor || page.nextCursor ? (
            <nav aria-label="Pages" className="flex justify-between text-sm">
              {page.previousCursor ? (
                <Link href={pageHref(query, { before: page.previousCursor })} className="text-blue-700 underline" rel="prev">
                  Previous
                </Link>
              ) : (
                <span />
              )}
              {page.nextCursor ? (
                <Link href={pageHref(query, { after: page.nextCursor })} className="text-blue-700 underline" rel="next">
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

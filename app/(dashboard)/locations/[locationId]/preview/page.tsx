import { pluralize } from "@/lib/format/plural";
import { Time } from "@/components/time/time";
import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/layout/page-header";
import { previewHref } from "@/components/preview/preview-href";
import { PreviewCountsPending } from "@/components/preview/preview-counts-pending";
import { PreviewProgress } from "@/components/preview/preview-progress";
import { OpeningsCalendar } from "@/components/preview/openings-calendar";
import { PreviewRecordsExplorer } from "@/components/preview/preview-records-explorer";
import { RootCauseGroups } from "@/components/preview/root-cause-groups";
import { Prefetched } from "@/components/queries/prefetched";
import { RebuildPreviewButton } from "@/components/preview/rebuild-preview-button";
import { RefreshPreviewButton } from "@/components/preview/refresh-preview-button";
import { Alert } from "@/components/ui/alert";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { getDatabase } from "@/db/client";
import { requirePageUser } from "@/lib/auth/guard";
import { can } from "@/lib/auth/permissions";
import { queryInputOf, type SearchParams } from "@/lib/http/search-params";
import { loadPageLocation } from "@/lib/locations/load-page-location";
import { ensureFreshPreview } from "@/lib/preview/ensure-fresh-preview";
import { PreviewQuery, PreviewRecordTypeInput } from "@/lib/preview/preview-inputs";
import { PreviewRecordsResponse } from "@/lib/preview/preview-record-responses";
import { PreviewRunsResponse } from "@/lib/preview/preview-runs-response";
import { queryKeys } from "@/lib/queries/query-keys";
import { displayedPreview } from "@/lib/preview/displayed-preview";
import { recordTypeLabels } from "@/lib/preview/record-type-labels";
import { getSourceReader } from "@/lib/preview/preview-source";
import { listOpeningsCalendar } from "@/lib/preview/openings-calendar";
import { listContactsToUnsubscribe, listPreviewPage } from "@/lib/preview/read-preview";
import { rootCauseTitle } from "@/lib/preview/root-cause-words";
import { listRootCauses } from "@/lib/preview/root-causes";
import { previewRecordsQueryOf } from "@/lib/queries/preview-queries";
import { ensurePreviewCounts } from "@/lib/preview/ensure-preview-counts";

export const metadata: Metadata = { title: "Preview" };

const countLabels = [
  ["sourceRows", "Source rows"],
  ["valid", "Valid"],
  ["warnings", "With warnings"],
  ["errors", "Errors"],
  ["excludedByRule", "Excluded by rule"],
  ["new", "New"],
  ["changed", "Changed"],
  ["removed", "Removed"],
] as const;

export default async function PreviewPage({
  params,
  searchParams,
}: {
  params: Promise<{ locationId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const user = await requirePageUser({ action: "preview.view" });
  const location = await loadPageLocation(user, (await params).locationId, "preview.view");
  const urlInput = queryInputOf(await searchParams);
  // Only the tab is the server's: the records' filters are read in the browser (PreviewRecordsExplorer).
  const query = PreviewQuery.parse({ type: PreviewRecordTypeInput.safeParse(urlInput.type).data });
  const db = getDatabase();
  const canRefresh = can(user, "preview.refresh");
  const canRebuild = can(user, "preview.rebuild");
  const runs = await ensureFreshPreview({ db, actor: user }, { location, reader: getSourceReader() });
  const shown = runs.shown;
  // A first run shows the record types read so far, then its counts and issues while it stores the rest.
  const { run: displayed, checked, storing, types } = displayedPreview(runs);
  const counts = checked?.counts ?? null;
  const countsState = await ensurePreviewCounts(db, runs);
  const countsPending =
    countsState === "sync_running"
      ? "A sync session is sending this location's records: new, changed and removed are counted when it ends."
      : countsState === "outdated"
        ? counts
          ? "Counted before the last sync session; counting again…"
          : "Counting the records…"
        : null;
  const type = types.includes(query.type) ? query.type : (types[0] ?? query.type);
  const current = { ...query, type };
  // The records table reads its page through React Query: the first one is read here and handed over.
  const recordsQuery = previewRecordsQueryOf(type, new URLSearchParams(urlInput));
  const parsedRecordsQuery = PreviewQuery.safeParse(recordsQuery);
  const [firstPage, causes, openings] = displayed
    ? await Promise.all([
        parsedRecordsQuery.success ? listPreviewPage(db, location.id, parsedRecordsQuery.data) : null,
        checked ? listRootCauses(db, location.id) : [],
        type === "openings" ? listOpeningsCalendar(db, location.id) : null,
      ])
    : [null, [], null];
  // Who no sendable record names any more is known once every record is stored.
  const toUnsubscribe = shown && type === "contact_details" ? await listContactsToUnsubscribe(db, location.id) : null;

  return (
    <>
      <PageHeader
        title={`Preview · ${location.name}`}
        description="What a sync sends, checked record by record: a first sync every valid record, later syncs the new and changed ones. Nothing is sent from this page."
        actions={
          <div className="flex flex-wrap gap-2">
            <Link href={`/locations/${location.id}`} className={buttonVariants({ variant: "ghost" })}>
              Back to the location
            </Link>
            {canRefresh ? <RefreshPreviewButton locationId={location.id} /> : null}
            {canRebuild ? <RebuildPreviewButton locationId={location.id} disabled={Boolean(runs.active) || !location.sourceKey} /> : null}
          </div>
        }
      />
      <Prefetched
        entries={[
          { queryKey: queryKeys.previewRuns(location.id), data: PreviewRunsResponse.parse(JSON.parse(JSON.stringify(runs))) },
          ...(displayed && firstPage
            ? [
                {
                  queryKey: queryKeys.previewRecords(location.id, displayed.id, recordsQuery),
                  data: PreviewRecordsResponse.parse(JSON.parse(JSON.stringify({ runId: displayed.id, ...firstPage }))),
                },
              ]
            : []),
        ]}
      >
        <div className="flex flex-col gap-4">
          {!location.sourceKey ? <Alert tone="error">This location has no source key yet: support sets it under Edit location.</Alert> : null}
          <PreviewProgress locationId={location.id} />
          {runs.lastFailed ? <Alert tone="error">The last preview failed: {runs.lastFailed.error}</Alert> : null}
          {runs.stale ? <Alert tone="info">The source changed since this preview was computed; a fresh one is on its way.</Alert> : null}
          {displayed ? (
            <>
              {shown ? (
                <p className="text-sm text-slate-600">
                  Computed <Time value={shown.finishedAt ?? shown.createdAt} timeZone={location.timeZone} /> · cached until the source changes ·{" "}
                  <a className="text-blue-700 underline" href={`/api/locations/${location.id}/preview/issues`}>
                    Download all issues (CSV)
                  </a>
                </p>
              ) : storing ? (
                <Alert tone="info">
                  Counts and issues are complete. The records a sync sends are being stored for browsing: until then contacts, vehicles and
                  appointments show only those it does not send.
                </Alert>
              ) : (
                <Alert tone="info">
                  Provisional: the record types read so far. Duplicates, references, changes and the counts are checked when the run ends.
                </Alert>
              )}
              <nav aria-label="Record types" className="flex flex-wrap gap-1 border-b border-slate-200">
                {types.map((candidate) => (
                  <Link
                    key={candidate}
                    href={previewHref(location.id, current, { type: candidate })}
                    aria-current={candidate === type ? "page" : undefined}
                    className="rounded-t-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 aria-[current=page]:border-b-2 aria-[current=page]:border-slate-900 aria-[current=page]:font-semibold"
                  >
                    {recordTypeLabels[candidate]}{" "}
                    {counts ? <span className="text-slate-600">{counts[candidate]!.sourceRows.toLocaleString("en")}</span> : null}
                    {counts?.[candidate]!.errors ? (
                      <span className="ml-1 text-red-700">· {pluralize(counts[candidate]!.errors, "error")}</span>
                    ) : null}
                  </Link>
                ))}
              </nav>
              {countsPending ? (
                <PreviewCountsPending locationId={location.id} countedAt={shown?.countedAt?.toISOString() ?? null} message={countsPending} />
              ) : null}
              {counts ? (
                <dl aria-label="Counts" className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-8">
                  {countLabels.map(([key, label]) => (
                    <div key={key} className="rounded-md border border-slate-200 bg-white p-3">
                      <dt className="text-xs text-slate-600">{key === "removed" && type === "contact_details" ? "To unsubscribe" : label}</dt>
                      <dd className="text-lg font-semibold" data-testid={`count-${key}`}>
                        {key === "removed" && counts[type]!.removed > 0 && shown ? (
                          <Link className="text-blue-700 hover:underline" href={previewHref(location.id, current, { status: "removed" })}>
                            {counts[type]!.removed.toLocaleString("en")}
                          </Link>
                        ) : (
                          counts[type]![key].toLocaleString("en")
                        )}
                      </dd>
                    </div>
                  ))}
                </dl>
              ) : null}
              {toUnsubscribe?.length ? (
                <Alert tone="info">
                  <p className="font-medium">Unsubscribed: no longer in the source</p>
                  <p>
                    The next sync sends these customers once with e-mail and text messages turned off (the service cannot delete a contact):{" "}
                    {toUnsubscribe.join(", ")}
                    {counts && counts.contact_details!.removed > toUnsubscribe.length
                      ? ` and ${(counts.contact_details!.removed - toUnsubscribe.length).toLocaleString("en")} more`
                      : ""}
                    .
                  </p>
                </Alert>
              ) : null}
              {openings ? (
                <Card role="region" aria-labelledby="openings-calendar-title">
                  <CardHeader>
                    <CardTitle id="openings-calendar-title">Openings calendar · next 72 hours</CardTitle>
                  </CardHeader>
                  <CardContent>
                    <OpeningsCalendar services={openings.services} truncated={openings.truncated} />
                  </CardContent>
                </Card>
              ) : null}
              <div className="grid gap-4 xl:grid-cols-[2fr_1fr]">
                <Card className="min-w-0">
                  <CardHeader>
                    <CardTitle>Records</CardTitle>
                  </CardHeader>
                  <CardContent>
                    <PreviewRecordsExplorer
                      locationId={location.id}
                      runId={displayed.id}
                      type={type}
                      timeZone={location.timeZone}
                      causeTitles={Object.fromEntries(causes.map((cause) => [cause.id, rootCauseTitle(cause)]))}
                    />
                  </CardContent>
                </Card>
                {/* Below xl the causes come first: they explain the table under them. */}
                <Card role="region" aria-labelledby="issues-title" className="order-first min-w-0 xl:order-none">
                  <CardHeader>
                    <CardTitle id="issues-title">Issues by root cause</CardTitle>
                  </CardHeader>
                  <CardContent>
                    {checked ? (
                      <RootCauseGroups locationId={location.id} type={type} causes={causes} />
                    ) : (
                      <p className="text-sm text-slate-600">Root causes are traced when the run ends.</p>
                    )}
                  </CardContent>
                </Card>
              </div>
            </>
          ) : !runs.active && !runs.lastFailed && location.sourceKey ? (
            <p className="text-sm text-slate-600">No preview yet.</p>
          ) : null}
        </div>
      </Prefetched>
    </>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/layout/page-header";
import { SessionHistoryFilters } from "@/components/sessions/session-history-filters";
import { Prefetched } from "@/components/queries/prefetched";
import { LiveSessionHistory } from "@/components/sessions/live-session-history";
import { HistoryIcon } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { buttonVariants } from "@/components/ui/button";
import { EmptyState, FilteredEmptyState } from "@/components/ui/empty-state";
import { Card, CardContent } from "@/components/ui/card";
import { getDatabase } from "@/db/client";
import { requirePageUser } from "@/lib/auth/guard";
import { can } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { loadPageLocation } from "@/lib/locations/load-page-location";
import { queryKeys } from "@/lib/queries/query-keys";
import { listSessionHistory, type SessionHistoryPage } from "@/lib/sync/read-session-history";
import { SessionHistoryQuery } from "@/lib/sync/session-inputs";

export const metadata: Metadata = { title: "Session history" };

type SearchParams = Record<string, string | string[] | undefined>;

export default async function SessionHistoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ locationId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const user = await requirePageUser({ action: "session.view" });
  const location = await loadPageLocation(user, (await params).locationId, "session.view");
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]));
  const parsed = SessionHistoryQuery.safeParse(raw);
  const query = parsed.success ? parsed.data : SessionHistoryQuery.parse({});
  let page: SessionHistoryPage;
  let shownQuery = query;
  let problem = parsed.success ? null : "The filters in the address are not valid: showing all sessions.";
  try {
    page = await listSessionHistory({ db: getDatabase(), actor: user }, { ...query, locationId: location.id });
  } catch (error) {
    if (!(error instanceof DomainError && error.code === "INVALID")) throw error;
    problem = "That page link is not valid: showing the newest sessions.";
    shownQuery = { ...query, after: undefined, before: undefined };
    page = await listSessionHistory({ db: getDatabase(), actor: user }, { ...shownQuery, locationId: location.id });
  }
  const base = `/locations/${location.id}/sessions`;
  const linkTo = (cursor: { after?: string; before?: string }) => {
    const search = new URLSearchParams();
    if (query.status) search.set("status", query.status);
    if (query.trigger) search.set("trigger", query.trigger);
    if (cursor.after) search.set("after", cursor.after);
    if (cursor.before) search.set("before", cursor.before);
    return `${base}?${search.toString()}`;
  };
  const empty =
    query.status || query.trigger ? (
      <FilteredEmptyState message="No sessions of this location match these filters." clearHref={base} />
    ) : (
      <EmptyState
        icon={HistoryIcon}
        message={`${location.name} has not synced yet: its sessions appear here once it syncs, on its daily schedule or with Sync now.`}
        action={
          can(user, "sync.start") ? (
            <Link href={`/locations/${location.id}`} className={buttonVariants({ variant: "secondary" })}>
              Go to the location to sync it
            </Link>
          ) : null
        }
      />
    );
  return (
    <>
      <PageHeader
        title={`Session history · ${location.name}`}
        description="Newest first"
        actions={
          <Link href={`/locations/${location.id}`} className="text-sm text-blue-700 underline">
            Back to the location
          </Link>
        }
      />
      <div className="flex flex-col gap-4">
        {problem ? <Alert tone="error">{problem}</Alert> : null}
        <SessionHistoryFilters locationId={location.id} query={query} />
        <Card>
          <CardContent>
            <Prefetched entries={[{ queryKey: queryKeys.locationSessions(location.id, shownQuery), data: page }]}>
              <LiveSessionHistory locationId={location.id} query={shownQuery} timeZone={location.timeZone} empty={empty} />
            </Prefetched>
          </CardContent>
        </Card>
        <nav aria-label="Pages" className="flex justify-between text-sm">
          {page.newerCursor ? (
            <Link href={linkTo({ before: page.newerCursor })} className="text-blue-700 underline">
              Newer
            </Link>
          ) : (
            <span />
          )}
          {page.olderCursor ? (
            <Link href={linkTo({ after: page.olderCursor })} className="text-blue-700 underline">
              Older
            </Link>
          ) : (
            <span />
          )}
        </nav>
      </div>
    </>
  );
}

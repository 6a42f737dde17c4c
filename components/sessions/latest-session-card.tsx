import { Time } from "@/components/time/time";
import { isInFlight } from "@/lib/queries/session-queries";
import { HistoryIcon } from "lucide-react";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import type { Permissions } from "@/lib/auth/permissions";
import type { SessionHistoryItem } from "@/lib/sync/read-session-history";
import { recordsNotSentOf } from "@/lib/sync/records-not-sent";
import { sessionDuration } from "./format-duration";
import { RecordsNotSentList } from "./records-not-sent-list";
import { SessionActions } from "./session-actions";
import { triggerLabels } from "./session-labels";
import { StatusBadge } from "@/components/ui/status-badge";
import { StepChips } from "./step-chips";

/**
 * The location's newest session in brief, with Resume / Close upstream session for those who may act.
 * `attention`: the problem the last session left on the location (shown only once that session has ended).
 */
export function LatestSessionCard({
  locationId,
  timeZone,
  latest,
  attention,
  permissions,
  now,
}: {
  locationId: string;
  timeZone: string;
  latest: SessionHistoryItem | null;
  attention: string | null;
  /** What the viewer may do (lib/auth/permissions, computed on the server). */
  permissions: Permissions;
  /** When the page's live query read `latest`. */
  now: number;
}) {
  const inFlight = latest ? isInFlight(latest.status) : false;
  const notSent = recordsNotSentOf(latest?.steps ?? []);
  const shownAttention = latest && !inFlight ? attention : null;
  return (
    <Card role="region" aria-labelledby="latest-session-title" data-testid="latest-session" data-status={latest?.status ?? "none"}>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle id="latest-session-title">Latest session</CardTitle>
        {shownAttention ? <Badge tone="danger">Needs attention</Badge> : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {latest ? (
          <>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-600">Status</dt>
              <dd>
                <StatusBadge status={latest.status} notSent={notSent.total} />
              </dd>
              <dt className="text-slate-600">Trigger</dt>
              <dd>
                {triggerLabels[latest.trigger] ?? latest.trigger}
                {latest.full ? " · full resync" : ""}
                {latest.requestedByEmail ? ` · ${latest.requestedByEmail}` : ""}
              </dd>
              <dt className="text-slate-600">{latest.startedAt ? "Started" : "Requested"}</dt>
              <dd>
                <Time value={latest.startedAt ?? latest.createdAt} timeZone={timeZone} />
              </dd>
              <dt className="text-slate-600">Duration</dt>
              <dd>{sessionDuration(latest, now)}</dd>
            </dl>
            <StepChips steps={latest.steps} sessionStatus={latest.status} />
            {shownAttention ? (
              <Alert tone="error">{shownAttention}</Alert>
            ) : latest.error && !inFlight ? (
              <p className="text-sm text-red-800">{latest.error}</p>
            ) : null}
            {latest.status === "succeeded" ? <RecordsNotSentList locationId={locationId} notSent={notSent} /> : null}
            <div className="flex flex-wrap gap-4 text-sm">
              <Link href={`/sessions/${latest.id}`} className="text-blue-700 underline">
                Open the session
              </Link>
              <Link href={`/locations/${locationId}/sessions`} className="text-blue-700 underline">
                Session history
              </Link>
            </div>
            {!inFlight ? <SessionActions session={latest} timeZone={timeZone} permissions={permissions} /> : null}
          </>
        ) : (
          <EmptyState
            icon={HistoryIcon}
            className="py-6"
            message={`No sync session has run for this location yet: once it is connected it syncs on its daily schedule${permissions["sync.start"] ? ", or at once with Sync now" : ""}.`}
          />
        )}
      </CardContent>
    </Card>
  );
}

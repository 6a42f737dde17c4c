import Link from "next/link";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { Permissions } from "@/lib/auth/permissions";
import { formatDateTime } from "@/lib/format/date-time";
import type { SessionHistoryItem } from "@/lib/sync/read-session-history";
import { durationBetween } from "./format-duration";
import { SessionActions } from "./session-actions";
import { isSessionInFlight, triggerLabels } from "./session-labels";
import { SessionStatusBadge } from "./session-status-badge";
import { StepChips } from "./step-chips";

/** The location's newest session in brief, with Resume / Close upstream session for those who may act. */
export function LatestSessionCard({
  locationId,
  timeZone,
  latest,
  permissions,
  renderedAt,
}: {
  locationId: string;
  timeZone: string;
  latest: SessionHistoryItem | null;
  /** What the viewer may do (lib/auth/permissions, computed on the server). */
  permissions: Permissions;
  renderedAt: number;
}) {
  return (
    <Card role="region" aria-labelledby="latest-session-title">
      <CardHeader>
        <CardTitle id="latest-session-title">Latest session</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {latest ? (
          <>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-600">Status</dt>
              <dd>
                <SessionStatusBadge status={latest.status} />
              </dd>
              <dt className="text-slate-600">Trigger</dt>
              <dd>
                {triggerLabels[latest.trigger] ?? latest.trigger}
                {latest.full ? " · full resync" : ""}
                {latest.requestedByEmail ? ` · ${latest.requestedByEmail}` : ""}
              </dd>
              <dt className="text-slate-600">{latest.startedAt ? "Started" : "Requested"}</dt>
              <dd>{formatDateTime(latest.startedAt ?? latest.createdAt, timeZone)}</dd>
              <dt className="text-slate-600">Duration</dt>
              <dd>{durationBetween(latest.startedAt, latest.finishedAt, renderedAt) || "not started"}</dd>
            </dl>
            <StepChips steps={latest.steps} />
            {latest.error ? <p className="text-sm text-red-800">{latest.error}</p> : null}
            <div className="flex flex-wrap gap-4 text-sm">
              <Link href={`/sessions/${latest.id}`} className="text-blue-700 underline">
                Open the session
              </Link>
              <Link href={`/locations/${locationId}/sessions`} className="text-blue-700 underline">
                Session history
              </Link>
            </div>
            {!isSessionInFlight(latest.status) ? <SessionActions session={latest} permissions={permissions} /> : null}
          </>
        ) : (
          <p className="text-sm text-slate-600">No sync session has run for this location yet.</p>
        )}
      </CardContent>
    </Card>
  );
}

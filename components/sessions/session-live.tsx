"use client";

import { Time } from "@/components/time/time";
import { isInFlight } from "@/lib/queries/session-queries";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent } from "@/components/ui/card";
import type { Permissions } from "@/lib/auth/permissions";
import { sessionQueryOptions } from "@/lib/queries/session-queries";
import { recordsNotSentOf } from "@/lib/sync/records-not-sent";
import { AttemptPanel, type OpenAttempt } from "./attempt-panel";
import { CopyJsonButton } from "./copy-json-button";
import { ErrorWithFix } from "./error-fix";
import { sessionDuration } from "./format-duration";
import { RecordsNotSentList } from "./records-not-sent-list";
import { RemovalStopPanel } from "./removal-stop-panel";
import { mayActOnSessions, SessionActions } from "./session-actions";
import { replayLabel, requesterLabel, stepLabel, triggerLabels } from "./session-labels";
import { StatusBadge } from "@/components/ui/status-badge";
import { SessionWaterfall } from "./session-waterfall";

/**
 * The session page's body: header, actions and the waterfall of steps, imports and requests (a request opens its side
 * panel), from the session's live query (polled once a
 * second while it is queued or running; the server page prefetched it). `permissions`: what the viewer may do
 * (lib/auth/permissions, computed on the server; the API checks again).
 */
export function SessionLive({ sessionId, permissions }: { sessionId: string; permissions: Permissions }) {
  const { data: view, dataUpdatedAt: now } = useQuery(sessionQueryOptions(sessionId));
  const [openAttempt, setOpenAttempt] = useState<OpenAttempt | null>(null);
  if (!view) return null;
  const { session } = view;
  const notSent = recordsNotSentOf(view.steps);
  const timeZone = session.locationTimeZone;
  const inFlight = isInFlight(session.status);
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardContent>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr_max-content_1fr]">
            <dt className="text-slate-600">Location</dt>
            <dd>
              <Link href={`/locations/${session.locationId}`} className="text-blue-700 underline">
                {session.locationName}
              </Link>
            </dd>
            <dt className="text-slate-600">Status</dt>
            <dd aria-live="polite">
              <StatusBadge status={session.status} notSent={notSent.total} />
              {session.currentStep && inFlight ? ` at ${stepLabel(session.currentStep)}` : ""}
            </dd>
            <dt className="text-slate-600">Trigger</dt>
            <dd>
              {triggerLabels[session.trigger] ?? session.trigger}
              {session.full ? " · full resync" : ""}
              {session.quiet ? " · nothing had changed" : ""}
            </dd>
            {session.replay ? (
              <>
                <dt className="text-slate-600">Replay</dt>
                <dd className="sm:col-span-3" data-testid="session-replay">
                  {replayLabel(session.replay)}: “{session.replay.reason}”
                </dd>
              </>
            ) : null}
            <dt className="text-slate-600">Who</dt>
            <dd>{requesterLabel(session)}</dd>
            <dt className="text-slate-600">Started</dt>
            <dd>{session.startedAt ? <Time value={session.startedAt} timeZone={timeZone} style="absolute" withZone /> : "not yet"}</dd>
            <dt className="text-slate-600">Duration</dt>
            <dd>{sessionDuration(session, now)}</dd>
            <dt className="text-slate-600">Environment</dt>
            <dd>{session.environment}</dd>
            <dt className="text-slate-600">Optional steps</dt>
            <dd>{session.optionalSteps.length ? session.optionalSteps.map(stepLabel).join(", ") : "none"}</dd>
          </dl>
        </CardContent>
      </Card>
      {session.removalStop ? (
        <RemovalStopPanel
          sessionId={session.id}
          stop={session.removalStop}
          canConfirm={permissions["sync.confirm-removals"] && session.status === "failed"}
          timeZone={timeZone}
        />
      ) : session.error ? (
        <Alert tone="error">
          <ErrorWithFix error={session.error} locationId={session.locationId} permissions={permissions} />
        </Alert>
      ) : null}
      {session.status === "succeeded" ? <RecordsNotSentList locationId={session.locationId} notSent={notSent} /> : null}
      {session.confirmedRemovals ? (
        <Alert tone="info">
          Removals confirmed by {session.confirmedRemovals.byEmail ?? "an operator"}: “{session.confirmedRemovals.reason}”.
        </Alert>
      ) : null}
      {session.upstreamOpen && !inFlight ? (
        <Alert tone="info">
          The upstream session is still open: the Marketing Automation Service waits before it sends campaigns. Resume this session, or close the
          upstream session.
        </Alert>
      ) : null}
      <div className="flex flex-wrap items-start justify-between gap-4">
        {mayActOnSessions(permissions) ? <SessionActions session={session} timeZone={timeZone} permissions={permissions} openResumed /> : <span />}
        <CopyJsonButton sessionId={session.id} />
      </div>
      {view.steps.length ? (
        <SessionWaterfall view={view} now={now} permissions={permissions} onOpenAttempt={setOpenAttempt} />
      ) : (
        <p className="text-sm text-slate-600">{inFlight ? "Waiting for a worker to start the session…" : "This session has no steps."}</p>
      )}
      <AttemptPanel
        sessionId={session.id}
        locationId={session.locationId}
        open={openAttempt}
        timeZone={timeZone}
        permissions={permissions}
        onClose={() => setOpenAttempt(null)}
      />
    </div>
  );
}

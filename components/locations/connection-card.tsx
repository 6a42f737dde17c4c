import { Time } from "@/components/time/time";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { LocationConnection } from "@/lib/locations/location-response";
import { isSessionAttentionReason } from "@/lib/sync/session-attention";
import { ConnectionActions } from "./connection-actions";
import { ConnectionStatusBadge, connectionStatusOf } from "./connection-status-badge";

/**
 * The location's connection and its last check. A problem of the last sync session is not a connection problem:
 * the Latest session card shows it, next to the session it is about.
 */
export function ConnectionCard({ location, timeZone, canAct }: { location: LocationConnection; timeZone: string; canAct: boolean }) {
  const when = (value: string | null) => (value ? <Time value={value} timeZone={timeZone} /> : "—");
  const connectionProblem = isSessionAttentionReason(location.attentionReason) ? null : location.attentionReason;
  return (
    <Card role="region" aria-labelledby="connection-title">
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle id="connection-title">Connection</CardTitle>
        <ConnectionStatusBadge status={connectionStatusOf({ connected: location.connected, attentionReason: connectionProblem })} />
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {connectionProblem ? <Alert tone="error">{connectionProblem}</Alert> : null}
        {location.connected ? (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">Upstream account</dt>
            <dd>{location.upstreamAccountEmail ?? "—"}</dd>
            <dt className="text-slate-600">Connected by</dt>
            <dd>{location.connectedByEmail ?? "—"}</dd>
            <dt className="text-slate-600">Connected at</dt>
            <dd>{when(location.connectedAt)}</dd>
            <dt className="text-slate-600">Last checked</dt>
            <dd>
              {location.lastCheckedAt ? (
                <>
                  {when(location.lastCheckedAt)} · {location.lastCheckOk ? "working" : "refused"}
                </>
              ) : (
                "—"
              )}
            </dd>
          </dl>
        ) : (
          <p className="text-sm text-slate-600">
            Not connected. The owner connects the location once with their Marketing Automation Service email and password; the dashboard keeps only
            the location&apos;s access token, encrypted, and never the password.
          </p>
        )}
        {canAct ? (
          <ConnectionActions locationId={location.id} connected={location.connected} />
        ) : (
          <p className="text-xs text-slate-500">Read-only: your role can view the connection but not change it.</p>
        )}
      </CardContent>
    </Card>
  );
}

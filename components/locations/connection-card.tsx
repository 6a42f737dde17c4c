import { Alert } from "@/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDateTime } from "@/lib/format/date-time";
import type { LocationView } from "@/lib/locations/get-location";
import { ConnectionActions } from "./connection-actions";
import { ConnectionStatusBadge, connectionStatusOf } from "./connection-status-badge";

export function ConnectionCard({ location, timeZone, canAct }: { location: LocationView; timeZone: string; canAct: boolean }) {
  const when = (value: Date | null) => (value ? `${formatDateTime(value, timeZone)} (${timeZone})` : "—");
  return (
    <Card role="region" aria-labelledby="connection-title">
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle id="connection-title">Connection</CardTitle>
        <ConnectionStatusBadge status={connectionStatusOf(location)} />
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {location.attentionReason ? <Alert tone="error">{location.attentionReason}</Alert> : null}
        {location.connected ? (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">Upstream account</dt>
            <dd>{location.upstreamAccountEmail ?? "—"}</dd>
            <dt className="text-slate-600">Connected by</dt>
            <dd>{location.connectedByEmail ?? "—"}</dd>
            <dt className="text-slate-600">Connected at</dt>
            <dd>{when(location.connectedAt)}</dd>
            <dt className="text-slate-600">Last checked</dt>
            <dd>{location.lastCheckedAt ? `${when(location.lastCheckedAt)} · ${location.lastCheckOk ? "working" : "refused"}` : "—"}</dd>
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

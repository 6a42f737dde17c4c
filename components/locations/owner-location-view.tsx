import { MailIcon } from "lucide-react";
import Link from "next/link";
import { Time } from "@/components/time/time";
import { Badge } from "@/components/ui/badge";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { OwnerLocationView as OwnerLocation } from "@/lib/locations/get-location";
import type { LatestSession } from "@/lib/locations/latest-sessions";
import { ownerSyncOutcome } from "@/lib/locations/owner-sync-outcome";
import { isSessionAttentionReason } from "@/lib/sync/session-attention";
import { NextRun } from "./next-run";

/**
 * A location as its business owner sees it: connected or not (Connect as the one obvious action), how the last sync
 * went, when the next one runs, and whom to write to. No operator controls and no operator words.
 */
export function OwnerLocationView({
  location,
  latest,
  nextRunAt,
  canConnect,
  supportEmail,
}: {
  location: OwnerLocation;
  latest: LatestSession | null;
  nextRunAt: string;
  canConnect: boolean;
  supportEmail: string;
}) {
  const { timeZone } = location;
  // A problem of the last sync is told under "Last sync"; only a refused connection asks the owner to connect again.
  const connectionRefused = Boolean(location.attentionReason && !isSessionAttentionReason(location.attentionReason));
  const connection = !location.connected
    ? {
        tone: "neutral",
        label: "Not connected",
        text: "Connect it once with your Marketing Automation Service email and password; then it syncs every day by itself.",
      }
    : connectionRefused
      ? {
          tone: "danger",
          label: "Connect again",
          text: "The Marketing Automation Service no longer accepts this location's connection. Connect it again to keep it in sync.",
        }
      : { tone: "success", label: "Connected", text: "This location is connected to your Marketing Automation Service account." };
  const outcome = ownerSyncOutcome(latest, location.connected);
  const paused = location.schedulePausedAt ? { at: location.schedulePausedAt.toISOString() } : null;
  const needsConnecting = !location.connected || connectionRefused;

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card role="region" aria-labelledby="owner-connection-title">
        <CardHeader className="flex-row items-center justify-between gap-2">
          <CardTitle id="owner-connection-title">Connection</CardTitle>
          <Badge tone={connection.tone as "neutral" | "danger" | "success"}>{connection.label}</Badge>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <p className="text-sm text-slate-700">{connection.text}</p>
          {location.connected ? (
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-600">Account</dt>
              <dd>{location.upstreamAccountEmail ?? "—"}</dd>
              <dt className="text-slate-600">Since</dt>
              <dd>{location.connectedAt ? <Time value={location.connectedAt} timeZone={timeZone} /> : "—"}</dd>
            </dl>
          ) : null}
          {canConnect ? (
            <div>
              <Link
                href={`/locations/${location.id}/connect`}
                className={buttonVariants({ variant: needsConnecting ? "default" : "secondary", size: needsConnecting ? "lg" : "default" })}
              >
                {location.connected ? (connectionRefused ? "Connect again" : "Reconnect") : "Connect"}
              </Link>
            </div>
          ) : null}
        </CardContent>
      </Card>

      <Card role="region" aria-labelledby="owner-sync-title">
        <CardHeader>
          <CardTitle id="owner-sync-title">Daily sync</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-[max-content_1fr] items-baseline gap-x-4 gap-y-3 text-sm">
            <dt className="text-slate-600">Last sync</dt>
            <dd className="flex flex-col gap-1" data-testid="owner-last-sync">
              <span className="flex flex-wrap items-center gap-2">
                <Badge tone={outcome.tone}>{outcome.label}</Badge>
                {latest ? <Time value={latest.endedAt} timeZone={timeZone} /> : null}
              </span>
              <span className="text-slate-700">{outcome.detail}</span>
            </dd>
            <dt className="text-slate-600">Next sync</dt>
            <dd data-testid="owner-next-sync">
              <NextRun
                nextRunAt={nextRunAt}
                timeZone={timeZone}
                archived={location.archivedAt !== null}
                connected={location.connected}
                pause={paused}
              />
            </dd>
          </dl>
        </CardContent>
      </Card>

      <Card role="region" aria-labelledby="owner-help-title" className="lg:col-span-2">
        <CardHeader>
          <CardTitle id="owner-help-title">Questions?</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700">
          <MailIcon aria-hidden="true" className="size-4 text-slate-500" />
          <span>Write to support at</span>
          <a href={`mailto:${supportEmail}`} className="font-medium text-blue-700 underline underline-offset-4">
            {supportEmail}
          </a>
          <span>and name this location.</span>
        </CardContent>
      </Card>
    </div>
  );
}

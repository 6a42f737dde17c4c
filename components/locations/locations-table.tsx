import { Time } from "@/components/time/time";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { StatusBadge } from "@/components/ui/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { LocationListItem } from "@/lib/locations/list-locations";
import { ConnectionStatusBadge } from "./connection-status-badge";
import { SchedulePausedNote } from "./schedule-paused-note";

const environmentLabels = { staging: "Staging", production: "Production" } as const;

/** `showDetails`: the operator's columns too (environment, upstream location ID), for whoever may see them. */
export function LocationsTable({ items, showDetails }: { items: LocationListItem[]; showDetails: boolean }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          {showDetails ? <TableHead>Environment</TableHead> : null}
          <TableHead>Connection</TableHead>
          <TableHead>Last sync</TableHead>
          <TableHead>Next sync</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((location) => (
          <TableRow key={location.id} data-testid={`location-row-${location.id}`}>
            <TableCell>
              <Link href={`/locations/${location.id}`} className="font-medium text-blue-700 underline-offset-4 hover:underline">
                {location.name}
              </Link>
              {showDetails && location.upstreamLocationId ? <div className="text-xs text-slate-600">{location.upstreamLocationId}</div> : null}
            </TableCell>
            {showDetails ? <TableCell>{location.environment ? environmentLabels[location.environment] : null}</TableCell> : null}
            <TableCell>
              <span title={location.attentionReason ?? undefined}>
                {location.archived ? <Badge tone="neutral">Archived</Badge> : <ConnectionStatusBadge status={location.connectionStatus} />}
              </span>
              {location.attentionReason ? <span className="sr-only">: {location.attentionReason}</span> : null}
            </TableCell>
            <TableCell>
              {location.lastSession ? (
                <>
                  <StatusBadge status={location.lastSession.status} notSent={location.lastSession.notSent} />{" "}
                  <Time value={location.lastSession.endedAt} timeZone={location.timeZone} />
                </>
              ) : (
                <span className="text-slate-600">Never synced</span>
              )}
            </TableCell>
            {/* A pause note wraps: cut to one line it lost its reason. */}
            <TableCell className={location.schedulePaused && !location.archived ? "min-w-48" : "whitespace-nowrap"}>
              {location.archived ? (
                <span className="text-slate-600">None: archived</span>
              ) : location.connectionStatus === "not_connected" ? (
                <span className="text-slate-600">Once connected</span>
              ) : location.schedulePaused ? (
                <SchedulePausedNote
                  pause={{ ...location.schedulePaused, at: location.schedulePaused.at.toISOString() }}
                  timeZone={location.timeZone}
                />
              ) : (
                <Time value={location.nextSyncAt} timeZone={location.timeZone} style="weekday" withZone />
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

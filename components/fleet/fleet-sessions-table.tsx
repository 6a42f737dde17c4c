import { Time } from "@/components/time/time";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { FleetSessionJson } from "@/lib/fleet/fleet-session-responses";
import { formatDuration } from "./format-duration";
import { StatusBadge } from "@/components/ui/status-badge";

const triggerLabels: Record<string, string> = { schedule: "Schedule", manual: "Manual", resume: "Resume", cli: "CLI" };

/** Times in UTC: the fleet spans every zone. */
export function FleetSessionsTable({ items }: { items: FleetSessionJson[] }) {
  return (
    <Table>
      <caption className="sr-only">Sync sessions across locations: running first, then failures needing attention, then newest</caption>
      <TableHeader>
        <TableRow>
          <TableHead>Session</TableHead>
          <TableHead>Location</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Trigger</TableHead>
          <TableHead>Started</TableHead>
          <TableHead>Duration</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((session) => (
          <TableRow key={session.id} data-testid={`fleet-session-${session.id}`}>
            <TableCell>
              <Link href={`/sessions/${session.id}`} className="font-mono text-xs text-blue-700 underline-offset-4 hover:underline">
                <span className="sr-only">Session </span>
                {session.id.slice(0, 8)}
              </Link>
            </TableCell>
            <TableCell>
              <Link href={`/locations/${session.locationId}`} className="font-medium text-blue-700 underline-offset-4 hover:underline">
                {session.locationName}
              </Link>
              <div className="text-xs text-slate-600">{session.environment}</div>
            </TableCell>
            <TableCell>
              <div className="flex flex-wrap items-center gap-1">
                <StatusBadge status={session.status} notSent={session.recordsNotSent} />
                {session.needsAttention ? <Badge tone="warning">Needs attention</Badge> : null}
              </div>
              {session.status === "running" && session.currentStep ? <div className="text-xs text-slate-600">at {session.currentStep}</div> : null}
              {session.status === "failed" && session.error ? (
                <div className="max-w-xs truncate text-xs text-red-800" title={session.error}>
                  {session.error}
                </div>
              ) : null}
            </TableCell>
            <TableCell>
              {triggerLabels[session.trigger] ?? session.trigger}
              {session.requestedByEmail ? <div className="text-xs text-slate-600">{session.requestedByEmail}</div> : null}
            </TableCell>
            <TableCell className="whitespace-nowrap">
              <Time value={session.startedAt ?? session.createdAt} timeZone="UTC" />
            </TableCell>
            <TableCell className="whitespace-nowrap">
              {session.startedAt && session.finishedAt ? (
                formatDuration(Date.parse(session.finishedAt) - Date.parse(session.startedAt))
              ) : (
                <span className="text-slate-600">–</span>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

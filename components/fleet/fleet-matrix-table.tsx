import { SchedulePausedNote } from "@/components/locations/schedule-paused-note";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { ScrollRegion } from "@/components/ui/scroll-region";
import type { FleetMatrixRowJson } from "@/lib/fleet/fleet-matrix-responses";
import { matrixStepLabels, matrixSteps } from "@/lib/fleet/step-freshness";
import { MatrixCellView } from "./matrix-cell";
import { SchedulePauseControl } from "./schedule-pause-control";
import { StatusBadge } from "@/components/ui/status-badge";

export function FleetMatrixTable({ rows, canPause }: { rows: FleetMatrixRowJson[]; canPause: boolean }) {
  return (
    <ScrollRegion>
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">Locations by sync step: the last outcome of each step and how fresh it is, worst locations first</caption>
        <thead>
          <tr className="border-b border-slate-200">
            <th scope="col" className="px-3 py-2 text-left font-medium text-slate-700">
              Location
            </th>
            {matrixSteps.map((step) => (
              <th key={step} scope="col" className="px-2 py-2 text-center text-xs font-medium text-slate-700">
                {matrixStepLabels[step]}
              </th>
            ))}
            <th scope="col" className="px-3 py-2 text-left font-medium text-slate-700">
              Last session
            </th>
            <th scope="col" className="px-3 py-2 text-left font-medium text-slate-700">
              Schedule
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.locationId} data-testid={`matrix-row-${row.locationId}`} className="border-b border-slate-100">
              <th scope="row" className="px-3 py-2 text-left align-top font-normal">
                <Link href={`/locations/${row.locationId}`} className="font-medium text-blue-700 underline-offset-4 hover:underline">
                  {row.name}
                </Link>
                <div className="flex flex-wrap items-center gap-1 text-xs text-slate-600">
                  {row.environment}
                  {row.attentionReason ? (
                    <Badge tone="danger" title={row.attentionReason}>
                      needs attention
                    </Badge>
                  ) : null}
                </div>
                {row.attentionReason ? <span className="sr-only">{row.attentionReason}</span> : null}
              </th>
              {row.cells.map((cell) => (
                <MatrixCellView key={cell.step} cell={cell} locationId={row.locationId} />
              ))}
              <td className="px-3 py-2 align-top text-xs" data-testid="matrix-latest-session">
                {row.latestSession ? (
                  <Link href={`/sessions/${row.latestSession.id}`} className="inline-flex">
                    <span className="sr-only">Last session of {row.name}: </span>
                    <StatusBadge status={row.latestSession.status} notSent={row.latestSession.recordsNotSent} />
                  </Link>
                ) : (
                  <span className="text-slate-600">none yet</span>
                )}
              </td>
              <td className="px-3 py-2 align-top text-xs">
                {row.schedulePaused ? (
                  <div className="mb-1">
                    <Badge tone="warning">Paused</Badge>
                    <div className="text-slate-700">
                      <SchedulePausedNote pause={row.schedulePaused} timeZone="UTC" />
                    </div>
                  </div>
                ) : (
                  <div className="mb-1 text-slate-600">{row.connected ? "Daily" : "Waits for connection"}</div>
                )}
                {canPause ? <SchedulePauseControl locationId={row.locationId} locationName={row.name} paused={row.schedulePaused !== null} /> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

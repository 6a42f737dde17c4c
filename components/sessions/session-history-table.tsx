import { Time } from "@/components/time/time";
import Link from "next/link";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { SessionHistoryItem } from "@/lib/sync/read-session-history";
import { recordsNotSentOf } from "@/lib/sync/records-not-sent";
import { sessionDuration } from "./format-duration";
import { replayLabel, requesterLabel, triggerLabels } from "./session-labels";
import { StatusBadge } from "@/components/ui/status-badge";
import { StepChips } from "./step-chips";

/** `now`: when the items were read (elapsed times of sessions in flight). */
export function SessionHistoryTable({ items, timeZone, now }: { items: SessionHistoryItem[]; timeZone: string; now: number }) {
  return (
    <Table aria-label="Sync sessions">
      <TableHeader>
        <TableRow>
          <TableHead>Start</TableHead>
          <TableHead>Trigger</TableHead>
          <TableHead>Who</TableHead>
          <TableHead>Environment</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Duration</TableHead>
          <TableHead>Steps</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((item) => (
          <TableRow key={item.id}>
            <TableCell className="whitespace-nowrap">
              <Link href={`/sessions/${item.id}`} className="text-blue-700 underline">
                <Time value={item.startedAt ?? item.createdAt} timeZone={timeZone} />
              </Link>
            </TableCell>
            <TableCell>
              {triggerLabels[item.trigger] ?? item.trigger}
              {item.full ? " (full)" : ""}
              {item.replay ? <span className="block text-xs text-slate-600">{replayLabel(item.replay)}</span> : null}
            </TableCell>
            <TableCell>{requesterLabel(item)}</TableCell>
            <TableCell>{item.environment}</TableCell>
            <TableCell>
              <StatusBadge status={item.status} notSent={recordsNotSentOf(item.steps).total} />
            </TableCell>
            <TableCell className="whitespace-nowrap">{sessionDuration(item, now)}</TableCell>
            <TableCell>
              <StepChips steps={item.steps} sessionStatus={item.status} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

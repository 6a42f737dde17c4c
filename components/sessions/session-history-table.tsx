import Link from "next/link";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/format/date-time";
import type { SessionHistoryItem } from "@/lib/sync/read-session-history";
import { durationBetween } from "./format-duration";
import { triggerLabels } from "./session-labels";
import { SessionStatusBadge } from "./session-status-badge";
import { StepChips } from "./step-chips";

export function SessionHistoryTable({ items, timeZone, renderedAt }: { items: SessionHistoryItem[]; timeZone: string; renderedAt: number }) {
  return (
    <Table aria-label="Sync sessions">
      <TableHeader>
        <TableRow>
          <TableHead>Start ({timeZone})</TableHead>
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
                {formatDateTime(item.startedAt ?? item.createdAt, timeZone)}
              </Link>
            </TableCell>
            <TableCell>
              {triggerLabels[item.trigger] ?? item.trigger}
              {item.full ? " (full)" : ""}
            </TableCell>
            <TableCell>{item.requestedByEmail ?? "—"}</TableCell>
            <TableCell>{item.environment}</TableCell>
            <TableCell>
              <SessionStatusBadge status={item.status} />
            </TableCell>
            <TableCell className="whitespace-nowrap">{durationBetween(item.startedAt, item.finishedAt, renderedAt) || "—"}</TableCell>
            <TableCell>
              <StepChips steps={item.steps} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

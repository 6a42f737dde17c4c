import { Time } from "@/components/time/time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { AttemptView } from "@/lib/sync/read-session-view";
import { formatDuration } from "./format-duration";

/** Every HTTP exchange as the client recorded it: paths and answers arrive already redacted (no token, no upload address). */
export function AttemptsTable({ attempts, label, timeZone }: { attempts: AttemptView[]; label: string; timeZone: string }) {
  if (attempts.length === 0) return null;
  return (
    <Table aria-label={label} className="text-xs">
      <TableHeader>
        <TableRow>
          <TableHead>Started</TableHead>
          <TableHead>Request</TableHead>
          <TableHead>Try</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Duration</TableHead>
          <TableHead>Retry delay</TableHead>
          <TableHead>Records / bytes</TableHead>
          <TableHead>Error · upstream answer</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {attempts.map((attempt) => (
          <TableRow key={attempt.id}>
            <TableCell className="whitespace-nowrap">
              <Time value={attempt.startedAt} timeZone={timeZone} style="absolute" />
            </TableCell>
            <TableCell className="font-mono break-all">
              {attempt.method} {attempt.path}
            </TableCell>
            <TableCell>{attempt.attempt}</TableCell>
            <TableCell className={attempt.status !== null && attempt.status >= 200 && attempt.status < 300 ? "text-green-800" : "text-red-800"}>
              {attempt.status ?? "no answer"}
            </TableCell>
            <TableCell className="whitespace-nowrap">{formatDuration(attempt.durationMs)}</TableCell>
            <TableCell className="whitespace-nowrap">{attempt.retryDelayMs === null ? "—" : formatDuration(attempt.retryDelayMs)}</TableCell>
            <TableCell className="whitespace-nowrap">
              {attempt.records ?? "—"} / {attempt.bytes ?? "—"}
            </TableCell>
            <TableCell className="break-all">{attempt.error ?? ""}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

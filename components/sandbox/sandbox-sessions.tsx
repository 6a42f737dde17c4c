import { Time } from "@/components/time/time";
import { formatAbsoluteTime } from "@/lib/format/time";
import { InboxIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { SandboxLocationInspection } from "@/lib/sandbox/inspect";

const formatTime = (value: Date | null) => (value ? <Time value={value} timeZone="UTC" style="absolute" /> : "—");

const uploadTone = { applied: "success", accepted: "info", rejected: "danger", receiving: "warning", issued: "neutral" } as const;

/** The sandbox's sync sessions of one location, newest first, with their events and uploads. */
export function SandboxSessions({ sessions }: { sessions: SandboxLocationInspection["sessions"] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Sessions</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {sessions.length === 0 ? (
          <EmptyState
            icon={InboxIcon}
            className="py-6"
            message="No sync session yet: the simulator records one each time this location syncs against it."
          />
        ) : null}
        {sessions.map((session) => (
          <section
            key={session.id}
            aria-label={`Session opened ${formatAbsoluteTime(session.openedAt, { timeZone: "UTC" })} UTC`}
            className="flex flex-col gap-2"
          >
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-medium">Opened {formatTime(session.openedAt)}</span>
              {session.closedAt ? (
                <Badge tone="neutral">closed {formatTime(session.closedAt)}</Badge>
              ) : (
                <Badge tone="warning">sync in progress</Badge>
              )}
              <span className="text-slate-600">data source {session.dataSource}</span>
            </div>
            <ul className="text-sm">
              {session.events.map((event) => (
                <li key={event.id}>
                  <span className="text-slate-600">{formatTime(event.at)}</span>{" "}
                  <code className="text-xs">{event.kind === "campaigns_released" ? "campaigns released" : event.kind}</code>{" "}
                  {Object.keys(event.details).length ? <code className="text-xs text-slate-600">{JSON.stringify(event.details)}</code> : null}
                </li>
              ))}
            </ul>
            {session.uploads.length ? (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>Upload</TableHead>
                    <TableHead>Parameters</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead>Records</TableHead>
                    <TableHead>Received (UTC)</TableHead>
                    <TableHead>Rejection</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {session.uploads.map((upload) => (
                    <TableRow key={upload.id}>
                      <TableCell>{upload.kind}</TableCell>
                      <TableCell>
                        <code className="text-xs">{Object.keys(upload.parameters).length ? JSON.stringify(upload.parameters) : "—"}</code>
                      </TableCell>
                      <TableCell>
                        <Badge tone={uploadTone[upload.status as keyof typeof uploadTone] ?? "neutral"}>{upload.status}</Badge>
                      </TableCell>
                      <TableCell>{upload.recordCount ?? "—"}</TableCell>
                      <TableCell className="whitespace-nowrap">{formatTime(upload.usedAt)}</TableCell>
                      <TableCell>
                        <code className="break-all text-xs">{upload.rejection ? JSON.stringify(upload.rejection) : ""}</code>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            ) : null}
          </section>
        ))}
      </CardContent>
    </Card>
  );
}

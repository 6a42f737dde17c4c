import { Time } from "@/components/time/time";
import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/layout/page-header";
import { ScrollTextIcon } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState, FilteredEmptyState } from "@/components/ui/empty-state";
import { Card, CardContent } from "@/components/ui/card";
import { Input, Select } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getDatabase } from "@/db/client";
import { auditActionLabel, auditActions } from "@/lib/audit/audit-action-labels";
import { AuditLogQuery, listAuditEvents } from "@/lib/audit/list-audit-events";
import { requirePageUser } from "@/lib/auth/guard";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditLogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser({ action: "audit.view" });
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]));
  const parsed = AuditLogQuery.safeParse(raw);
  const query = parsed.success ? parsed.data : AuditLogQuery.parse({});
  const { events, nextCursor } = await listAuditEvents({ db: getDatabase(), actor: user }, query);
  const nextParams = new URLSearchParams(Object.entries({ ...raw, before: nextCursor ?? "" }).filter(([, value]) => value) as [string, string][]);

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Sign-ins, user and role changes, credential changes, connections, and who started, cancelled or resumed syncs."
      />
      <Card className="mb-4">
        <CardContent>
          <form method="get" className="grid gap-3 sm:grid-cols-5 sm:items-end">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="filter-action">Action</Label>
              <Select id="filter-action" name="action" defaultValue={query.action ?? ""}>
                <option value="">All actions</option>
                {auditActions.map((action) => (
                  <option key={action} value={action}>
                    {auditActionLabel(action)}
                  </option>
                ))}
              </Select>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="filter-actor">Actor email contains</Label>
              <Input id="filter-actor" name="actor" defaultValue={query.actor ?? ""} />
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="filter-from">From (UTC)</Label>
              <Input id="filter-from" name="from" type="date" defaultValue={query.from ?? ""} />
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="filter-to">To (UTC)</Label>
              <Input id="filter-to" name="to" type="date" defaultValue={query.to ?? ""} />
            </div>
            <Button type="submit">Filter</Button>
          </form>
        </CardContent>
      </Card>
      {!parsed.success ? (
        <Alert tone="error" className="mb-4">
          Some filters were not valid and were ignored.
        </Alert>
      ) : null}
      <Card>
        <CardContent>
          {events.length === 0 ? (
            query.action || query.actor || query.from || query.to ? (
              <FilteredEmptyState message="No entries match these filters." clearHref="/settings/audit" />
            ) : (
              <EmptyState
                icon={ScrollTextIcon}
                message="Nothing has been recorded yet: sign-ins, user and role changes, credential changes and syncs started by hand appear here as they happen."
              />
            )
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Time (UTC)</TableHead>
                  <TableHead>Actor</TableHead>
                  <TableHead>Action</TableHead>
                  <TableHead>Target</TableHead>
                  <TableHead>Details</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {events.map((event) => (
                  <TableRow key={event.id}>
                    <TableCell className="whitespace-nowrap">
                      <Time value={event.at} timeZone="UTC" style="absolute" />
                    </TableCell>
                    <TableCell>
                      <div>{event.actorEmail ?? "—"}</div>
                      {event.clientAddress ? <div className="text-xs text-slate-600">{event.clientAddress}</div> : null}
                    </TableCell>
                    <TableCell>
                      <div>{auditActionLabel(event.action)}</div>
                      <code className="text-xs text-slate-600">{event.action}</code>
                    </TableCell>
                    <TableCell>{event.targetLabel ?? (event.targetType ? `${event.targetType} ${event.targetId}` : "—")}</TableCell>
                    <TableCell>
                      <code className="break-all text-xs">{Object.keys(event.details).length ? JSON.stringify(event.details) : ""}</code>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {nextCursor ? (
            <div className="mt-4 flex justify-end">
              <Link className="text-sm text-blue-700 underline" href={`/settings/audit?${nextParams.toString()}`}>
                Older entries
              </Link>
            </div>
          ) : null}
        </CardContent>
      </Card>
    </>
  );
}

import { Time } from "@/components/time/time";
import type { Metadata } from "next";
import Link from "next/link";
import { ServerIcon } from "lucide-react";
import { PageHeader } from "@/components/layout/page-header";
import { Prefetched } from "@/components/queries/prefetched";
import { SandboxFaults } from "@/components/sandbox/sandbox-faults";
import { SandboxSessions } from "@/components/sandbox/sandbox-sessions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Select } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getDatabase } from "@/db/client";
import { sandboxRecordTypes } from "@/db/schema";
import { requirePageUser } from "@/lib/auth/guard";
import { can } from "@/lib/auth/permissions";
import { queryKeys } from "@/lib/queries/query-keys";
import { inspectSandboxLocation, listSandboxLocations, SandboxInspectQuery } from "@/lib/sandbox/inspect";
import { getSandboxFaults } from "@/lib/sandbox/manage-faults";

export const metadata: Metadata = { title: "Sandbox inspector" };

const formatTime = (value: Date) => <Time value={value} timeZone="UTC" style="absolute" />;
const statusTone = (status: number) => (status === 0 || status >= 500 ? "danger" : status >= 400 ? "warning" : "success");

export default async function SandboxInspectorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser({ action: "sandbox.inspect" });
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]));
  const parsed = SandboxInspectQuery.safeParse(raw);
  const query = parsed.success ? parsed.data : SandboxInspectQuery.parse({});
  const db = getDatabase();
  const locations = await listSandboxLocations(db);
  const locationId = query.location ?? locations[0]?.id;
  const inspection = locationId ? await inspectSandboxLocation(db, { locationId, type: query.type, requestsBefore: query.before }) : undefined;
  const faults = await getSandboxFaults({ db, actor: user });
  const pageHref = (before?: number) =>
    `/settings/sandbox?${new URLSearchParams({ location: locationId ?? "", type: query.type, ...(before ? { before: String(before) } : {}) }).toString()}`;

  return (
    <>
      <PageHeader
        title="Sandbox inspector"
        description="What the built-in simulator of the upstream service holds for a location: records, sync sessions and the requests it received."
      />
      <div className="mb-4">
        <Prefetched entries={[{ queryKey: queryKeys.sandboxFaults, data: faults }]}>
          <SandboxFaults canChange={can(user, "sandbox.faults")} />
        </Prefetched>
      </div>
      <Card className="mb-4">
        <CardContent>
          <form method="get" className="grid gap-3 sm:grid-cols-3 sm:items-end">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="sandbox-location">Location</Label>
              <Select id="sandbox-location" name="location" defaultValue={locationId ?? ""}>
                {locations.map((location) => (
                  <option key={location.id} value={location.id}>
                    {location.name} ({location.id}) – {location.environment}, {location.ownerEmail}
                  </option>
                ))}
              </Select>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="sandbox-type">Records shown</Label>
              <Select id="sandbox-type" name="type" defaultValue={query.type}>
                {sandboxRecordTypes.map((type) => (
                  <option key={type} value={type}>
                    {type.replaceAll("_", " ")}
                  </option>
                ))}
              </Select>
            </div>
            <Button type="submit">Show</Button>
          </form>
        </CardContent>
      </Card>

      {!inspection ? (
        <Card>
          <EmptyState
            icon={ServerIcon}
            message={
              locations.length === 0
                ? "The simulator holds no locations yet: they appear here once the demo is provisioned or a test creates one."
                : "No location has this id. Choose one from the list above."
            }
          />
        </Card>
      ) : (
        <div className="flex flex-col gap-4">
          <Card>
            <CardHeader>
              <CardTitle>
                {inspection.location.name} <span className="text-sm font-normal text-slate-600">({inspection.location.id})</span>
              </CardTitle>
            </CardHeader>
            <CardContent className="flex flex-col gap-4">
              <div className="flex flex-wrap items-center gap-2 text-sm">
                {inspection.location.syncInProgress ? <Badge tone="warning">sync in progress</Badge> : <Badge tone="neutral">not in sync</Badge>}
                <span className="text-slate-600">data source {inspection.location.dataSource ?? "—"}</span>
              </div>
              <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4 lg:grid-cols-7">
                {sandboxRecordTypes.map((type) => (
                  <div key={type} className="rounded-md border border-slate-200 p-2">
                    <dt className="text-slate-600">{type.replaceAll("_", " ")}</dt>
                    <dd className="text-lg font-semibold">
                      <Link
                        className="underline-offset-2 hover:underline"
                        href={`/settings/sandbox?location=${encodeURIComponent(inspection.location.id)}&type=${type}`}
                      >
                        {inspection.counts[type]}
                      </Link>
                    </dd>
                  </div>
                ))}
              </dl>
              <div>
                <h3 className="mb-2 text-sm font-medium">First {query.type.replaceAll("_", " ")}</h3>
                {inspection.records.length === 0 ? (
                  <p className="text-sm text-slate-600">None stored.</p>
                ) : (
                  <Table>
                    <TableHeader>
                      <TableRow>
                        <TableHead>Key</TableHead>
                        <TableHead>Record</TableHead>
                        <TableHead>Updated (UTC)</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {inspection.records.map((record) => (
                        <TableRow key={record.key}>
                          <TableCell>
                            <code className="text-xs">{record.key}</code>
                          </TableCell>
                          <TableCell>
                            <code className="break-all text-xs">{JSON.stringify(record.data)}</code>
                          </TableCell>
                          <TableCell className="whitespace-nowrap">{formatTime(record.updatedAt)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                )}
              </div>
            </CardContent>
          </Card>

          <SandboxSessions sessions={inspection.sessions} />

          <Card>
            <CardHeader>
              <CardTitle>Requests received</CardTitle>
            </CardHeader>
            <CardContent className="flex flex-col gap-3">
              <p className="text-sm text-slate-600">Newest first, 50 a page{query.before ? ", older than the newest page" : ""}.</p>
              {inspection.requests.length === 0 ? (
                <p className="text-sm text-slate-600">No requests yet.</p>
              ) : (
                <Table aria-label="Requests received">
                  <TableHeader>
                    <TableRow>
                      <TableHead>Time (UTC)</TableHead>
                      <TableHead>Request</TableHead>
                      <TableHead>Outcome</TableHead>
                      <TableHead>Reason</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {inspection.requests.map((request) => (
                      <TableRow key={request.id}>
                        <TableCell className="whitespace-nowrap">{formatTime(request.at)}</TableCell>
                        <TableCell>
                          <code className="break-all text-xs">
                            {request.method} {request.path}
                          </code>
                        </TableCell>
                        <TableCell className="whitespace-nowrap">
                          <Badge tone={statusTone(request.status)}>{request.status === 0 ? "reset" : request.status}</Badge>{" "}
                          {request.code ? <code className="text-xs">{request.code}</code> : null}
                        </TableCell>
                        <TableCell className="text-xs">{request.reason ?? ""}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
              <nav aria-label="Request pages" className="flex flex-wrap gap-3 text-sm">
                {query.before ? (
                  <Link className="text-blue-700 underline" href={pageHref()}>
                    Newest requests
                  </Link>
                ) : null}
                {inspection.olderRequestsBefore ? (
                  <Link className="text-blue-700 underline" href={pageHref(inspection.olderRequestsBefore)}>
                    Older requests
                  </Link>
                ) : null}
              </nav>
            </CardContent>
          </Card>
        </div>
      )}
    </>
  );
}

"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type ChangeEvent } from "react";
import { toast } from "sonner";
import { useApiMutation } from "@/components/queries/use-api-mutation";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { InviteLinkNotice } from "@/components/users/invite-link-notice";
import { pluralize } from "@/lib/format/plural";
import type { LocationImportResult } from "@/lib/locations/import-locations";
import { importColumns } from "@/lib/locations/location-import-inputs";
import { queryKeys } from "@/lib/queries/query-keys";

type Result = Omit<LocationImportResult, "owners"> & { owners: (LocationImportResult["owners"][number] & { expiresAt?: string })[] };

/** Choose a file → Check (dry run: every row's problems) → Import (all rows, one transaction) → the owners' links. */
export function LocationImportForm() {
  const router = useRouter();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [checked, setChecked] = useState<Result | null>(null);
  const [imported, setImported] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = useApiMutation<Result>([queryKeys.locations]);

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    setChecked(null);
    setImported(null);
    setError(null);
    setFile(chosen ? { name: chosen.name, text: await chosen.text() } : null);
  }

  async function run(dryRun: boolean) {
    if (!file) return;
    const result = await send.mutateAsync({ method: "POST", url: "/api/locations/import", body: { csv: file.text, dryRun } });
    if (!result.ok) return setError(result.detail);
    setError(null);
    if (dryRun || result.data.problems.length) return setChecked(result.data);
    setImported(result.data);
    toast.success(`${pluralize(result.data.created.length, "location")} imported.`);
    router.refresh();
  }

  const ready = checked !== null && checked.problems.length === 0 && checked.rows.length > 0;
  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>CSV file</CardTitle>
          <CardDescription>
            A header row naming the columns <code>{importColumns.join(", ")}</code>; <code>sync_time</code> (default 10:00) and{" "}
            <code>owner_email</code> may be empty. Nothing is created until every row passes.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="import-file">CSV file</Label>
            <Input id="import-file" type="file" accept=".csv,text/csv" onChange={onFile} />
          </div>
          {error ? <Alert tone="error">{error}</Alert> : null}
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" disabled={!file || send.isPending || imported !== null} onClick={() => run(true)}>
              Check file
            </Button>
            <Button disabled={!ready || send.isPending || imported !== null} onClick={() => run(false)}>
              {ready ? `Import ${pluralize(checked.rows.length, "location")}` : "Import"}
            </Button>
          </div>
        </CardContent>
      </Card>
      {checked && !imported ? <CheckResult result={checked} /> : null}
      {imported ? <Imported result={imported} /> : null}
    </div>
  );
}

function CheckResult({ result }: { result: Result }) {
  if (result.problems.length === 0)
    return (
      <Alert tone="success">
        Every row passes: {pluralize(result.rows.length, "location")} ready to import
        {result.rows.some((row) => row.ownerEmail) ? ", and their owners invited" : ""}.
      </Alert>
    );
  return (
    <Card>
      <CardHeader>
        <CardTitle>{pluralize(result.problems.length, "problem")}: nothing was imported</CardTitle>
        <CardDescription>Correct the file and check it again.</CardDescription>
      </CardHeader>
      <CardContent>
        <Table aria-label="Problems of the file">
          <TableHeader>
            <TableRow>
              <TableHead>Row</TableHead>
              <TableHead>Column</TableHead>
              <TableHead>Problem</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {result.problems.map((problem, index) => (
              <TableRow key={index}>
                <TableCell>{problem.row}</TableCell>
                <TableCell>
                  <code>{problem.field}</code>
                </TableCell>
                <TableCell>{problem.reason}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

function Imported({ result }: { result: Result }) {
  return (
    <div className="flex flex-col gap-3">
      <Alert tone="success">
        {pluralize(result.created.length, "location")} imported.{" "}
        <Link className="underline" href="/locations">
          See the locations
        </Link>
        .
      </Alert>
      {result.owners.map((owner) =>
        owner.kind === "invite" && owner.path && owner.expiresAt ? (
          <InviteLinkNotice key={owner.email} email={owner.email} path={owner.path} expiresAt={owner.expiresAt} />
        ) : (
          <Alert key={owner.email} tone="info">
            {owner.email} has a dashboard account already and now sees {owner.locations.join(", ")}.
          </Alert>
        ),
      )}
    </div>
  );
}

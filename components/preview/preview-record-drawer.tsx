"use client";

import { useQuery } from "@tanstack/react-query";
import { Time } from "@/components/time/time";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import { statusLabel, statusTone } from "@/lib/format/status";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { previewRecordQueryOptions } from "@/lib/queries/preview-queries";
import { isSendable } from "@/lib/pipeline/record-status";

const json = (value: unknown) => JSON.stringify(value, null, 2) ?? "null";

/** A record's side panel: the source rows it came from (read now) beside the record the mapping made, with its issues. */
export function PreviewRecordDrawer({
  locationId,
  type,
  seq,
  timeZone,
  onClose,
}: {
  locationId: string;
  type: PreviewRecordType;
  seq: number | null;
  timeZone: string;
  onClose: () => void;
}) {
  const { data, error } = useQuery({ ...previewRecordQueryOptions(locationId, type, seq ?? -1), enabled: seq !== null });
  const record = data?.record;
  const sendable = isSendable(record);
  return (
    <Sheet open={seq !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <SheetContent side="right" className="sm:max-w-3xl">
        <SheetHeader>
          <SheetTitle>{record ? record.label.title : "Record"}</SheetTitle>
          {record ? (
            <SheetDescription asChild>
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone={statusTone(record.status)}>{statusLabel(record.status)}</Badge>
                <span>
                  {record.recordKey ?? record.sourceId}
                  {record.label.startsAt ? (
                    <>
                      {" · "}
                      <Time value={record.label.startsAt} timeZone={timeZone} style="absolute" />
                    </>
                  ) : null}
                  {record.label.detail ? ` · ${record.label.detail}` : null}
                </span>
              </div>
            </SheetDescription>
          ) : (
            <SheetDescription>The source row beside the mapped record.</SheetDescription>
          )}
        </SheetHeader>
        {error ? <Alert tone="error">The record could not be read: {error.message}</Alert> : null}
        {record ? (
          <div className="flex flex-col gap-4 text-sm">
            {record.issues.length ? (
              <section aria-label="Issues of this record">
                <ul className="flex flex-col gap-1">
                  {record.issues.map((issue, index) => (
                    <li key={index}>
                      <Badge tone={issue.severity === "error" ? "danger" : "warning"}>{issue.severity === "error" ? "Error" : "Warning"}</Badge>{" "}
                      {issue.field}: {issue.reason}
                      {issue.original ? <span className="text-slate-600"> (was “{issue.original}”)</span> : null}
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
            {record.excludedReason ? <p>Excluded by rule: {record.excludedReason}. It is not sent, and this is not an error.</p> : null}
            <div className="grid gap-4 sm:grid-cols-2" data-testid="record-sides">
              <section aria-labelledby="source-side" className="flex min-w-0 flex-col gap-2">
                <h3 id="source-side" className="font-medium">
                  Source row {record.sourceId}
                </h3>
                {data.sourceError ? <Alert tone="error">{data.sourceError}</Alert> : null}
                {data.sourceRows && data.sourceRows.length === 0 ? (
                  <p className="text-slate-600">
                    The source has no row with this id now: deleted since the preview, or (an appointment without a start) in no window.
                  </p>
                ) : null}
                {data.sourceRows?.map((row, index) => (
                  <pre key={index} data-testid="source-json" className="overflow-x-auto rounded bg-slate-100 p-3 text-xs text-slate-900">
                    {json(row)}
                  </pre>
                ))}
              </section>
              <section aria-labelledby="mapped-side" className="flex min-w-0 flex-col gap-2">
                <h3 id="mapped-side" className="font-medium">
                  {sendable ? "The JSON that would be sent:" : "Not sent. What the mapping made of it:"}
                </h3>
                <pre data-testid="record-json" className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
                  {json(record.payload)}
                </pre>
              </section>
            </div>
          </div>
        ) : !error ? (
          <p className="text-sm text-slate-600">Reading the record…</p>
        ) : null}
      </SheetContent>
    </Sheet>
  );
}

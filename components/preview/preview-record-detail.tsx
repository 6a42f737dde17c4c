import Link from "next/link";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { getPreviewRecord } from "@/lib/preview/read-preview";

type Detail = NonNullable<Awaited<ReturnType<typeof getPreviewRecord>>>;

export function PreviewRecordDetail({ record, closeHref }: { record: Detail; closeHref: string }) {
  const sendable = record.status === "valid" || record.status === "warning";
  return (
    <Card role="region" aria-labelledby="record-detail-title">
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle id="record-detail-title">Source row {record.sourceId}</CardTitle>
        <Link href={closeHref} className="text-sm text-blue-700 hover:underline">
          Close
        </Link>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {record.issues.length ? (
          <ul className="flex flex-col gap-1">
            {record.issues.map((issue, index) => (
              <li key={index}>
                <strong className={issue.severity === "error" ? "text-red-800" : "text-amber-800"}>{issue.severity}</strong> · {issue.field}:{" "}
                {issue.reason}
                {issue.original ? <span className="text-slate-500"> (was “{issue.original}”)</span> : null}
              </li>
            ))}
          </ul>
        ) : null}
        {record.excludedReason ? <p>Excluded by rule: {record.excludedReason}. It is not sent, and this is not an error.</p> : null}
        <p className="font-medium">{sendable ? "The JSON that would be sent:" : "Not sent. What the mapping made of it:"}</p>
        <pre data-testid="record-json" className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
          {JSON.stringify(record.payload, null, 2) ?? "null"}
        </pre>
      </CardContent>
    </Card>
  );
}

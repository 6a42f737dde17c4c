import { pluralize } from "@/lib/format/plural";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { statusLabel, statusTone } from "@/lib/format/status";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { PREVIEW_PAGE_SIZE, type PreviewQuery } from "@/lib/preview/preview-inputs";
import type { PreviewRecordListItem } from "@/lib/preview/read-preview";
import { previewHref } from "./preview-href";

function summaryOf(payload: unknown): string {
  if (!payload || typeof payload !== "object") return "—";
  const record = payload as Record<string, unknown>;
  const name = [record.first_name, record.last_name].filter((part) => typeof part === "string").join(" ");
  const parts = [
    record.name,
    name || undefined,
    record.email,
    record.start_at,
    record.calendar_external_id && !record.name ? `calendar ${record.calendar_external_id}` : undefined,
  ];
  return parts.filter((part): part is string => typeof part === "string" && part !== "").join(" · ") || "—";
}

export function PreviewRecordsTable({
  locationId,
  query,
  items,
  total,
}: {
  locationId: string;
  query: PreviewQuery;
  items: PreviewRecordListItem[];
  total: number;
}) {
  const lastPage = Math.max(0, Math.ceil(total / PREVIEW_PAGE_SIZE) - 1);
  const sortLink = (sort: PreviewQuery["sort"], label: string) => (
    <Link
      href={previewHref(locationId, query, { sort, page: 0 })}
      aria-current={query.sort === sort ? "true" : undefined}
      className="hover:underline aria-[current=true]:font-semibold"
    >
      {label}
      {query.sort === sort ? " ▲" : ""}
    </Link>
  );
  return (
    <div className="flex flex-col gap-3">
      <Table aria-label="Mapped records">
        <TableHeader>
          <TableRow>
            <TableHead>{sortLink("source", "#")}</TableHead>
            <TableHead>{sortLink("key", "External ID")}</TableHead>
            <TableHead>Record</TableHead>
            <TableHead>{sortLink("status", "Status")}</TableHead>
            <TableHead>Change</TableHead>
            <TableHead>Issues</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {items.map((item) => {
            return (
              <TableRow key={item.seq} data-testid={`preview-row-${item.sourceId}`}>
                <TableCell className="text-slate-500">{item.seq + 1}</TableCell>
                <TableCell>
                  <Link className="text-blue-700 hover:underline" href={previewHref(locationId, query, { record: item.seq })}>
                    {item.recordKey ?? item.sourceId}
                  </Link>
                </TableCell>
                <TableCell className="max-w-md truncate">{summaryOf(item.payload)}</TableCell>
                <TableCell>
                  <Badge tone={statusTone(item.status)} data-status={item.status}>
                    {item.status === "excluded" && item.excludedReason ? `Excluded: ${item.excludedReason}` : statusLabel(item.status)}
                  </Badge>
                </TableCell>
                <TableCell>{item.diff ?? "—"}</TableCell>
                <TableCell>{item.issueCount || ""}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {items.length === 0 ? <p className="py-6 text-center text-sm text-slate-600">No records match.</p> : null}
      <nav aria-label="Record pages" className="flex items-center justify-between text-sm">
        <span>
          {pluralize(total, "record")} · page {query.page + 1} of {lastPage + 1}
        </span>
        <span className="flex gap-4">
          {query.page > 0 ? <Link href={previewHref(locationId, query, { page: query.page - 1, record: undefined })}>Previous</Link> : null}
          {query.page < lastPage ? <Link href={previewHref(locationId, query, { page: query.page + 1, record: undefined })}>Next</Link> : null}
        </span>
      </nav>
    </div>
  );
}

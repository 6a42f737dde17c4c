import { pluralize } from "@/lib/format/plural";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { PreviewQuery } from "@/lib/preview/preview-inputs";
import type { IssueGroup } from "@/lib/preview/read-preview";
import { previewHref } from "./preview-href";

export function IssueGroups({ locationId, query, groups }: { locationId: string; query: PreviewQuery; groups: IssueGroup[] }) {
  if (groups.length === 0) return <p className="text-sm text-slate-600">No issues for this record type.</p>;
  return (
    <ul className="flex flex-col gap-3" aria-label="Issues by reason">
      {groups.map((group) => (
        <li key={`${group.severity}-${group.field}-${group.code}`} className="rounded-md border border-slate-200 p-3 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={group.severity === "error" ? "danger" : "warning"}>{group.severity}</Badge>
            <span className="font-medium">
              {group.field} · {group.code}
            </span>
            <span className="text-slate-600">{pluralize(group.count, "record")}</span>
          </div>
          <ul className="mt-2 flex flex-col gap-0.5 text-slate-700">
            {group.samples.map((sample) => (
              <li key={sample.seq}>
                <Link className="text-blue-700 hover:underline" href={previewHref(locationId, query, { record: sample.seq })}>
                  {sample.sourceId}
                </Link>
                : {sample.reason}
                {sample.original ? <span className="text-slate-500"> (was “{sample.original}”)</span> : null}
              </li>
            ))}
            {group.count > group.samples.length ? (
              <li className="text-slate-500">… and {group.count - group.samples.length} more (see the CSV export)</li>
            ) : null}
          </ul>
        </li>
      ))}
    </ul>
  );
}

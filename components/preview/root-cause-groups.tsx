"use client";

import { FilterIcon } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { pluralize } from "@/lib/format/plural";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { rootCauseEffectParts, rootCauseTitle } from "@/lib/preview/root-cause-words";
import type { RootCause } from "@/lib/preview/root-causes";
import { usePreviewUrl } from "./use-preview-url";

/** Shown at first; the rest are behind "Show all". */
const FIRST_CAUSES = 12;

const causeHref = (locationId: string, type: PreviewRecordType, cause: string) =>
  `/locations/${locationId}/preview?${new URLSearchParams({ type, cause }).toString()}`;

/**
 * The preview's issues by root cause: what each missing, excluded or failing record holds back, of every type. Choosing
 * one filters the records table to what it affects (at once on this tab; another tab when none of this type are).
 */
export function RootCauseGroups({ locationId, type, causes }: { locationId: string; type: PreviewRecordType; causes: RootCause[] }) {
  const router = useRouter();
  const { params, change } = usePreviewUrl();
  const [showAll, setShowAll] = useState(false);
  const selected = params.get("cause");
  if (causes.length === 0) return <p className="text-sm text-slate-600">No issues: every record can be sent as it is.</p>;
  const choose = (cause: RootCause) => {
    if (selected === cause.id) return change({ cause: undefined, record: undefined });
    if (cause.effects.some((effect) => effect.type === type)) return change({ cause: cause.id, record: undefined });
    router.push(causeHref(locationId, cause.effects[0]!.type, cause.id));
  };
  const shown = showAll ? causes : causes.slice(0, FIRST_CAUSES);
  return (
    <div className="flex flex-col gap-3">
      <ul className="flex flex-col gap-2" aria-label="Issues by root cause">
        {shown.map((cause) => (
          <li
            key={cause.id}
            className="rounded-md border border-slate-200 p-3 text-sm aria-[current=true]:border-blue-600"
            aria-current={selected === cause.id}
          >
            <div className="flex items-start gap-2">
              <Badge tone={cause.severity === "error" ? "danger" : "warning"}>{cause.severity === "error" ? "Error" : "Warning"}</Badge>
              <button
                type="button"
                onClick={() => choose(cause)}
                aria-pressed={selected === cause.id}
                className="flex-1 text-left font-medium text-slate-900 hover:underline focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
              >
                {rootCauseTitle(cause)}
                <FilterIcon aria-hidden="true" className="ml-1 inline size-3.5 text-slate-500" />
                <span className="sr-only">{selected === cause.id ? " (filtering the records; choose again to clear)" : " (filter the records)"}</span>
              </button>
            </div>
            <p className="mt-1 text-slate-700">
              →{" "}
              {cause.effects
                .filter((effect) => effect.notSent || effect.sentWithWarning)
                .map((effect, index) => (
                  <span key={effect.type}>
                    {index > 0 ? " · " : null}
                    <Link className="text-blue-700 hover:underline" href={causeHref(locationId, effect.type, cause.id)}>
                      {rootCauseEffectParts(cause, effect).join(", ")}
                    </Link>
                  </span>
                ))}
            </p>
          </li>
        ))}
      </ul>
      {causes.length > shown.length ? (
        <Button variant="link" className="self-start px-0" onClick={() => setShowAll(true)}>
          Show all {pluralize(causes.length, "cause")}
        </Button>
      ) : null}
    </div>
  );
}

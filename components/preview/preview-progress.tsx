"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { recordTypeLabels } from "@/lib/preview/record-type-labels";
import { previewRunsQueryOptions } from "@/lib/queries/preview-queries";

/**
 * The preview run in flight, from the location's preview-runs query (polled while a run is in flight). The records
 * below are rendered on the server: the page is rendered again once as each record type finishes and when the run ends.
 */
export function PreviewProgress({ locationId }: { locationId: string }) {
  const router = useRouter();
  const { data } = useQuery(previewRunsQueryOptions(locationId));
  const run = data?.active ?? null;
  // The page is rendered again as each type is read, once the counts are complete, and when the run ends.
  const typesDone = run ? Object.values(run.progress).filter((value) => value.done).length + (run.checkedAt ? 1 : 0) : -1;
  const shownTypesDone = useRef(typesDone);
  useEffect(() => {
    if (typesDone === shownTypesDone.current) return;
    shownTypesDone.current = typesDone;
    router.refresh();
  }, [typesDone, router]);

  if (!run) return null;
  const entries = Object.entries(run.progress);
  const done = entries.filter(([, value]) => value.done).length;
  const total = Math.max(entries.length, 1);
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-2 rounded-md border border-blue-200 bg-blue-50 p-4 text-sm text-blue-950">
      <p className="font-medium">
        {run.status === "queued" ? "Preview queued…" : run.checkedAt ? "Storing the records for browsing…" : "Computing the preview…"}
      </p>
      <progress className="h-2 w-full" max={total} value={done} aria-label="Preview progress">
        {done} of {total} record types
      </progress>
      <ul className="grid grid-cols-2 gap-x-4 sm:grid-cols-4">
        {entries.map(([type, value]) => (
          <li key={type}>
            {recordTypeLabels[type as PreviewRecordType] ?? type}: {value.rows.toLocaleString("en")} rows{value.done ? " ✓" : "…"}
          </li>
        ))}
      </ul>
    </div>
  );
}

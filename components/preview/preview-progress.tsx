"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { PreviewProgress as Progress } from "@/db/schema";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { recordTypeLabels } from "@/lib/preview/record-type-labels";

type RunState = { status: string; progress: Progress } | null;

/** Polls the run in flight once a second and reloads the page when it has ended. */
export function PreviewProgress({ locationId, initial }: { locationId: string; initial: NonNullable<RunState> }) {
  const router = useRouter();
  const [run, setRun] = useState<RunState>(initial);

  useEffect(() => {
    let stopped = false;
    let lastTypesDone = Object.values(initial.progress).filter((value) => value.done).length;
    const timer = setInterval(async () => {
      const response = await fetch(`/api/locations/${locationId}/preview`, { headers: { accept: "application/json" } }).catch(() => null);
      if (!response?.ok || stopped) return;
      const state = (await response.json()) as { active: RunState };
      setRun(state.active);
      const typesDone = state.active ? Object.values(state.active.progress).filter((value) => value.done).length : -1;
      if (!state.active) clearInterval(timer);
      // Reload when the run ends, and as each record type finishes (the page shows them provisionally).
      if (typesDone !== lastTypesDone) {
        lastTypesDone = typesDone;
        router.refresh();
      }
    }, 1000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [locationId, router, initial.progress]);

  if (!run) return null;
  const entries = Object.entries(run.progress);
  const done = entries.filter(([, value]) => value.done).length;
  const total = Math.max(entries.length, 1);
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-2 rounded-md border border-blue-200 bg-blue-50 p-4 text-sm text-blue-950">
      <p className="font-medium">{run.status === "queued" ? "Preview queued…" : "Computing the preview…"}</p>
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

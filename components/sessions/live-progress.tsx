"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback } from "react";
import type { Permissions } from "@/lib/auth/permissions";
import type { SessionView } from "@/lib/sync/read-session-view";
import { durationBetween } from "./format-duration";
import { SessionActions } from "./session-actions";
import { stepLabel } from "./session-labels";
import { SessionStatusBadge } from "./session-status-badge";
import { StepChips } from "./step-chips";
import { useLiveSession } from "./use-live-session";

/** The open session of a location, polled once a second; the page reloads when it ends. */
export function LiveProgress({ initial, renderedAt, permissions }: { initial: SessionView; renderedAt: number; permissions: Permissions }) {
  const router = useRouter();
  const refresh = useCallback(() => router.refresh(), [router]);
  const { view, now } = useLiveSession(initial, renderedAt, refresh);
  const { session, steps } = view;
  const current = steps.find((step) => step.name === session.currentStep) ?? steps.find((step) => step.status === "running");
  const itemsDone = current ? current.items.filter((item) => item.status === "succeeded").length : 0;
  const sent = steps.reduce((sum, step) => sum + step.recordsSent, 0);
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-2 rounded-md border border-blue-200 bg-blue-50 p-4 text-sm text-blue-950">
      <p className="flex flex-wrap items-center gap-2 font-medium">
        <SessionStatusBadge status={session.status} />
        {session.status === "queued" ? "Waiting for a worker…" : current ? `Step: ${stepLabel(current.name)}` : "Starting…"}
      </p>
      {current ? (
        <p>
          {current.recordsSent.toLocaleString("en")} records sent in this step
          {current.items.length ? ` · ${itemsDone} of ${current.items.length} imports done` : ""} · {sent.toLocaleString("en")} in the session
        </p>
      ) : null}
      <p>Elapsed: {durationBetween(session.startedAt ?? session.createdAt, session.finishedAt, now)}</p>
      <StepChips steps={steps} />
      <Link href={`/sessions/${session.id}`} className="self-start text-blue-800 underline">
        Watch the session step by step
      </Link>
      <SessionActions session={session} permissions={permissions} />
    </div>
  );
}

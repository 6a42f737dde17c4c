import Link from "next/link";
import type { Permissions } from "@/lib/auth/permissions";
import type { SessionView } from "@/lib/sync/read-session-view";
import { durationBetween, WAITING_FOR_A_WORKER } from "./format-duration";
import { SessionActions } from "./session-actions";
import { stepLabel } from "./session-labels";
import { StatusBadge } from "@/components/ui/status-badge";
import { StepChips } from "./step-chips";

/** The open session of a location as the page's live query last read it (`now`: when it was read). */
export function LiveProgress({ view, now, permissions }: { view: SessionView; now: number; permissions: Permissions }) {
  const { session, steps } = view;
  const current = steps.find((step) => step.name === session.currentStep) ?? steps.find((step) => step.status === "running");
  const itemsDone = current ? current.items.filter((item) => item.status === "succeeded").length : 0;
  const sent = steps.reduce((sum, step) => sum + step.recordsSent, 0);
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="live-progress"
      data-status={session.status}
      className="flex flex-col gap-2 rounded-md border border-blue-200 bg-blue-50 p-4 text-sm text-blue-950"
    >
      <p className="flex flex-wrap items-center gap-2 font-medium">
        <StatusBadge status={session.status} />
        {session.status === "queued" ? `${WAITING_FOR_A_WORKER}…` : current ? `Step: ${stepLabel(current.name)}` : "Starting…"}
      </p>
      {current ? (
        <p>
          {current.recordsSent.toLocaleString("en")} records sent in this step
          {current.items.length ? ` · ${itemsDone} of ${current.items.length} imports done` : ""} · {sent.toLocaleString("en")} in the session
        </p>
      ) : null}
      {session.startedAt ? <p>Elapsed: {durationBetween(session.startedAt, session.finishedAt, now)}</p> : null}
      <StepChips steps={steps} sessionStatus={session.status} />
      <Link href={`/sessions/${session.id}`} className="self-start text-blue-800 underline">
        Watch the session step by step
      </Link>
      <SessionActions session={session} timeZone={session.locationTimeZone} permissions={permissions} />
    </div>
  );
}

import { pluralize } from "@/lib/format/plural";
import { Time } from "@/components/time/time";
import type { StepView } from "@/lib/sync/read-session-view";
import { AttemptsTable } from "./attempts-table";
import { durationBetween } from "./format-duration";
import { stepLabel } from "./session-labels";
import { StatusBadge } from "@/components/ui/status-badge";

function Numbers({ sent, invalid, excluded, bytes }: { sent: number; invalid?: number; excluded?: number; bytes: number }) {
  return (
    <span>
      {sent.toLocaleString("en")} sent
      {invalid !== undefined ? ` · ${invalid.toLocaleString("en")} skipped as invalid` : ""}
      {excluded !== undefined ? ` · ${excluded.toLocaleString("en")} excluded by rule` : ""} · {bytes.toLocaleString("en")} bytes
    </span>
  );
}

/** The steps in protocol order; each with its imports (date ranges, services, contact chunks) and, for staff, every HTTP attempt. */
export function StepTimeline({ steps, timeZone, now, showAttempts }: { steps: StepView[]; timeZone: string; now: number; showAttempts: boolean }) {
  return (
    <ol className="flex flex-col gap-3" aria-label="Steps">
      {steps.map((step) => (
        <li
          key={step.id}
          className="rounded-lg border border-slate-200 bg-white"
          aria-labelledby={`step-${step.name}`}
          data-testid={`step-${step.name}`}
          data-status={step.status}
        >
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-slate-100 px-4 py-3 text-sm">
            <h3 id={`step-${step.name}`} className="font-semibold">
              {stepLabel(step.name)}
            </h3>
            <StatusBadge status={step.status} />
            <span className="text-slate-700">
              {step.startedAt ? <Time value={step.startedAt} timeZone={timeZone} style="absolute" /> : "not started"}
            </span>
            <span className="text-slate-700">{durationBetween(step.startedAt, step.finishedAt, now)}</span>
            <Numbers sent={step.recordsSent} invalid={step.recordsInvalid} excluded={step.recordsExcluded} bytes={step.bytes} />
            {step.attempts > 1 ? <span className="text-amber-800">{step.attempts} engine attempts</span> : null}
          </div>
          {step.error ? <p className="border-b border-slate-100 px-4 py-2 text-sm text-red-800">{step.error}</p> : null}
          {step.items.length ? (
            <ul className="divide-y divide-slate-100" aria-label={`${stepLabel(step.name)} imports`}>
              {step.items.map((item) => (
                <li key={item.id} className="px-4 py-2 pl-8 text-sm">
                  <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
                    <span className="font-mono">{item.key}</span>
                    <StatusBadge status={item.status} />
                    <span className="text-slate-700">{durationBetween(item.startedAt, item.finishedAt, now)}</span>
                    <Numbers sent={item.recordsSent} bytes={item.bytes} />
                  </div>
                  {item.error ? <p className="text-red-800">{item.error}</p> : null}
                  {showAttempts && item.httpAttempts.length ? (
                    // Collapsed unless the import failed: a first sync has dozens of month imports.
                    <details open={item.status === "failed"} className="mt-1">
                      <summary className="cursor-pointer text-slate-700">{pluralize(item.httpAttempts.length, "HTTP attempt")}</summary>
                      <AttemptsTable attempts={item.httpAttempts} label={`Attempts of ${stepLabel(step.name)} ${item.key}`} timeZone={timeZone} />
                    </details>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
          {showAttempts && step.httpAttempts.length ? (
            <div className="px-4 py-2">
              <AttemptsTable attempts={step.httpAttempts} label={`Attempts of ${stepLabel(step.name)}`} timeZone={timeZone} />
            </div>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

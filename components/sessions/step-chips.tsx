import { cn } from "@/lib/utils";
import { statusLabel } from "@/lib/format/status";
import { stepLabel } from "./session-labels";

// succeeded green, failed red, running blue, everything else (pending, skipped, cancelled) grey.
const chipClasses: Record<string, string> = {
  succeeded: "border-green-300 bg-green-100 text-green-900",
  failed: "border-red-300 bg-red-100 text-red-900",
  running: "border-blue-300 bg-blue-100 text-blue-900",
};
const greyChip = "border-slate-200 bg-slate-100 text-slate-700";

export function StepChip({ name, status }: { name: string; status: string }) {
  return (
    <span className={cn("inline-flex items-center rounded border px-1.5 py-0.5 text-xs", chipClasses[status] ?? greyChip)} data-status={status}>
      {stepLabel(name)}
      <span className="sr-only">: {statusLabel(status)}</span>
    </span>
  );
}

/** What a session without step rows says: a worker that has just claimed it writes them before it reads anything. */
const noStepsText = (sessionStatus: string) =>
  sessionStatus === "running" ? "Preparing the steps…" : sessionStatus === "queued" ? "No steps yet" : "No steps";

export function StepChips({ steps, sessionStatus }: { steps: { name: string; status: string }[]; sessionStatus: string }) {
  if (steps.length === 0) return <span className="text-xs text-slate-600">{noStepsText(sessionStatus)}</span>;
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Steps">
      {steps.map((step) => (
        <li key={step.name}>
          <StepChip name={step.name} status={step.status} />
        </li>
      ))}
    </ul>
  );
}

"use client";

import { Download } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import type { Permissions } from "@/lib/auth/permissions";
import type { AttemptView, SessionView, StepItemView, StepView } from "@/lib/sync/session-view";
import { cn } from "@/lib/utils";
import type { OpenAttempt } from "./attempt-panel";
import { ErrorWithFix } from "./error-fix";
import { stepLabel } from "./session-labels";
import { StatusBadge } from "@/components/ui/status-badge";
import { WaterfallAxis, WaterfallBar } from "./waterfall-bar";
import { formatMilliseconds, formatOffset, offsetOf, spanOf, waterfallScaleOf, type WaterfallScale } from "./waterfall-scale";

const rowGrid = "grid grid-cols-1 gap-1 sm:grid-cols-[minmax(0,20rem)_minmax(0,1fr)] sm:items-center sm:gap-3";

/** A step or item without a span: not started while pending, else ended without timings (a skipped step). */
function spanText(span: { start: number; end: number } | null, running: boolean, status: string): string {
  if (!span) return status === "pending" || status === "queued" ? "not started" : "no timing recorded";
  return `${formatOffset(span.start)} · ${formatMilliseconds(span.end - span.start)}${running ? " so far" : ""}`;
}

function counts(progress: {
  recordsSent: number;
  recordsInvalid?: number;
  recordsExcluded?: number;
  recordsLeftOut?: number;
  attempts: number;
}): string {
  const parts = [`${progress.recordsSent.toLocaleString("en")} sent`];
  if (progress.recordsLeftOut) parts.push(`${progress.recordsLeftOut.toLocaleString("en")} left out (the upstream lacks what they name)`);
  if (progress.recordsInvalid) parts.push(`${progress.recordsInvalid.toLocaleString("en")} invalid`);
  if (progress.recordsExcluded) parts.push(`${progress.recordsExcluded.toLocaleString("en")} excluded`);
  if (progress.attempts > 1) parts.push(`ran ${progress.attempts} times`);
  return parts.join(" · ");
}

function AttemptRow({
  attempt,
  number,
  scale,
  onOpen,
}: {
  attempt: AttemptView;
  number: number;
  scale: WaterfallScale;
  onOpen: (open: OpenAttempt) => void;
}) {
  const start = offsetOf(scale, attempt.startedAt);
  const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
  // The row's visible text is its accessible name ("Request #12 POST /path 503 retry +1.234 s · 12 ms").
  return (
    <li>
      <button
        type="button"
        data-testid="attempt-row"
        onClick={(event) => onOpen({ attempt, number, offset: start, opener: event.currentTarget })}
        className={cn(
          rowGrid,
          "w-full rounded px-2 py-1 text-left text-xs hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none",
        )}
      >
        <span className="flex min-w-0 items-baseline gap-2 pl-6">
          <span className="shrink-0 text-slate-600">
            <span className="sr-only">Request </span>#{number}
          </span>{" "}
          <span className="min-w-0 truncate font-mono" title={`${attempt.method} ${attempt.path}`}>
            {attempt.method} {attempt.path}
          </span>{" "}
          <span className={cn("shrink-0 font-medium", ok ? "text-green-800" : "text-red-800")}>{attempt.status ?? "no answer"}</span>{" "}
          {attempt.retryDelayMs !== null ? <span className="shrink-0 text-amber-800">retry</span> : null}{" "}
        </span>
        <span className="flex items-center gap-2">
          <WaterfallBar
            scale={scale}
            span={{ start, end: start + attempt.durationMs }}
            tone={ok ? "succeeded" : "failed"}
            retryDelayMs={attempt.retryDelayMs}
            thin
          />
          <span className="w-36 shrink-0 text-right whitespace-nowrap text-slate-700">
            {formatOffset(start)} · {formatMilliseconds(attempt.durationMs)}
          </span>
        </span>
      </button>
    </li>
  );
}

interface RowContext {
  scale: WaterfallScale;
  numbers: Map<number, number>;
  onOpen: (open: OpenAttempt) => void;
  showAttempts: boolean;
  /** The steps and items whose error is shown: each error once, where it first appears. */
  showsError: Set<string>;
  locationId: string;
  sessionId: string;
  permissions: Permissions;
}

/** The session's error shows above the timeline; a step's or import's only when it says something new. */
function errorShowings(view: SessionView): Set<string> {
  const seen = new Set(view.session.error ? [view.session.error] : []);
  const shows = new Set<string>();
  for (const row of view.steps.flatMap((step) => [step, ...step.items])) {
    if (!row.error || seen.has(row.error)) continue;
    seen.add(row.error);
    shows.add(row.id);
  }
  return shows;
}

function ErrorOnce({ id, error, context }: { id: string; error: string | null; context: RowContext }) {
  if (!error || !context.showsError.has(id)) return null;
  return (
    <div className="px-2 pb-1 sm:pl-8">
      <ErrorWithFix error={error} locationId={context.locationId} permissions={context.permissions} />
    </div>
  );
}

function AttemptRows({ attempts, context }: { attempts: AttemptView[]; context: RowContext }) {
  if (!context.showAttempts || attempts.length === 0) return null;
  return (
    <ul aria-label="Requests">
      {attempts.map((attempt) => (
        <AttemptRow key={attempt.id} attempt={attempt} number={context.numbers.get(attempt.id) ?? 0} scale={context.scale} onOpen={context.onOpen} />
      ))}
    </ul>
  );
}

function ItemRow({ item, context }: { item: StepItemView; context: RowContext }) {
  const span = spanOf(context.scale, item.startedAt, item.finishedAt);
  const running = item.status === "running";
  return (
    <li id={`row-${item.id}`} data-testid="item-row" data-status={item.status}>
      <div className={cn(rowGrid, "px-2 py-1 text-xs")}>
        <span className="flex min-w-0 flex-wrap items-baseline gap-x-2 pl-3">
          <span className="font-mono">{item.key}</span>
          <StatusBadge status={item.status} />
          <span className="text-slate-700">{counts(item)}</span>
          {item.status === "failed" && context.permissions["fixture.export"] ? (
            <a
              href={`/api/sessions/${context.sessionId}/items/${item.id}/fixture`}
              download
              className="inline-flex items-center gap-1 text-blue-700 underline"
              title="Its records, what the upstream must hold first and its redacted requests, as one JSON file: npm run cli -- fixture:replay <file> sends it again to the sandbox"
            >
              <Download aria-hidden="true" className="size-3" />
              Export fixture<span className="sr-only"> of {item.key}</span>
            </a>
          ) : null}
        </span>
        <span className="flex items-center gap-2">
          <WaterfallBar scale={context.scale} span={span} tone={item.status} />
          <span className="w-36 shrink-0 text-right whitespace-nowrap text-slate-700">{spanText(span, running, item.status)}</span>
        </span>
      </div>
      <ErrorOnce id={item.id} error={item.error} context={context} />
      <AttemptRows attempts={item.httpAttempts} context={context} />
    </li>
  );
}

function StepRow({ step, context, expanded, onToggle }: { step: StepView; context: RowContext; expanded: boolean; onToggle: () => void }) {
  const span = spanOf(context.scale, step.startedAt, step.finishedAt);
  const running = step.status === "running";
  const children = step.items.length + (context.showAttempts ? step.httpAttempts.length : 0);
  const childrenId = `step-${step.name}-rows`;
  return (
    <li
      id={`row-${step.id}`}
      className={cn("rounded-md border bg-white", running ? "border-blue-300" : "border-slate-200")}
      data-testid={`step-${step.name}`}
      data-status={step.status}
      aria-labelledby={`step-${step.name}`}
      aria-current={running ? "step" : undefined}
    >
      <div className={cn(rowGrid, "px-2 py-2 text-sm")}>
        <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          {children ? (
            <button
              type="button"
              onClick={onToggle}
              aria-expanded={expanded}
              aria-controls={childrenId}
              className="w-5 rounded text-slate-700 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
            >
              <span aria-hidden="true">{expanded ? "▾" : "▸"}</span>
              <span className="sr-only">
                {expanded ? "Hide" : "Show"} the {stepLabel(step.name)} rows ({children})
              </span>
            </button>
          ) : (
            <span className="w-5" />
          )}
          <h3 id={`step-${step.name}`} className="font-semibold">
            {stepLabel(step.name)}
          </h3>
          <StatusBadge status={step.status} />
          <span className="text-xs text-slate-700">{counts(step)}</span>
        </span>
        <span className="flex items-center gap-2">
          <WaterfallBar scale={context.scale} span={span} tone={step.status} />
          <span className="w-36 shrink-0 text-right text-xs whitespace-nowrap text-slate-700">{spanText(span, running, step.status)}</span>
        </span>
      </div>
      <ErrorOnce id={step.id} error={step.error} context={context} />
      {expanded && children ? (
        <div id={childrenId} className="border-t border-slate-100 pb-1">
          {step.items.length ? (
            <ul aria-label={`${stepLabel(step.name)} imports`}>
              {step.items.map((item) => (
                <ItemRow key={item.id} item={item} context={context} />
              ))}
            </ul>
          ) : null}
          <AttemptRows attempts={step.httpAttempts} context={context} />
        </div>
      ) : null}
    </li>
  );
}

/** Steps open by default: the one running, a failed one, and any short enough to read at a glance. */
function openByDefault(step: StepView, showAttempts: boolean): boolean {
  const children = step.items.length + (showAttempts ? step.httpAttempts.length : 0);
  return step.status === "running" || step.status === "failed" || children <= 6;
}

/**
 * The session as a waterfall: steps, their imports and (staff) every HTTP request as spans on one time axis, offsets
 * in ms from the session start. A request opens its side panel; while the session runs, the running step (or import)
 * is kept in view unless the viewer turns that off.
 */
export function SessionWaterfall({
  view,
  now,
  permissions,
  onOpenAttempt,
}: {
  view: SessionView;
  now: number;
  permissions: Permissions;
  onOpenAttempt: (open: OpenAttempt) => void;
}) {
  const { session } = view;
  const inFlight = session.status === "queued" || session.status === "running";
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
  const [follow, setFollow] = useState(true);
  const scale = waterfallScaleOf(view, now);
  const numbers = useMemo(() => new Map(view.attempts.map((attempt, index) => [attempt.id, index + 1])), [view.attempts]);
  const outsideSteps = view.attempts.filter((attempt) => attempt.stepId === null);
  const runningStep = view.steps.find((step) => step.status === "running");
  const runningItem = runningStep?.items.find((item) => item.status === "running");
  const followed = runningItem?.id ?? runningStep?.id;

  useEffect(() => {
    if (!inFlight || !follow || !followed) return;
    document.getElementById(`row-${followed}`)?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [followed, follow, inFlight]);

  const context: RowContext = {
    scale,
    numbers,
    onOpen: onOpenAttempt,
    showAttempts: view.includesAttempts,
    showsError: errorShowings(view),
    locationId: session.locationId,
    sessionId: session.id,
    permissions,
  };
  return (
    <section aria-labelledby="timeline-heading" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="timeline-heading" className="text-base font-semibold">
          Timeline
        </h2>
        <p className="text-xs text-slate-600">
          Offsets from the session start, to the millisecond{view.includesAttempts ? "; choose a request to see it" : ""}.
        </p>
        {inFlight ? (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={follow} onChange={(event) => setFollow(event.target.checked)} />
            Follow the running step
          </label>
        ) : null}
      </div>
      <div className={cn(rowGrid, "px-2")}>
        <span className="hidden sm:block" />
        <span className="pr-38">
          <WaterfallAxis scale={scale} />
        </span>
      </div>
      <ol className="flex flex-col gap-2" aria-label="Steps">
        {view.steps.map((step) => (
          <StepRow
            key={step.id}
            step={step}
            context={context}
            expanded={toggled[step.id] ?? openByDefault(step, view.includesAttempts)}
            onToggle={() => setToggled((current) => ({ ...current, [step.id]: !(current[step.id] ?? openByDefault(step, view.includesAttempts)) }))}
          />
        ))}
        {outsideSteps.length && view.includesAttempts ? (
          <li className="rounded-md border border-slate-200 bg-white" aria-labelledby="step-outside">
            <h3 id="step-outside" className="px-2 py-2 text-sm font-semibold">
              Outside any step
            </h3>
            <AttemptRows attempts={outsideSteps} context={context} />
          </li>
        ) : null}
      </ol>
    </section>
  );
}

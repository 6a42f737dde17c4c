import { cn } from "@/lib/utils";
import { formatOffset, type WaterfallScale } from "./waterfall-scale";

const barTones: Record<string, string> = {
  succeeded: "bg-green-600",
  failed: "bg-red-600",
  running: "bg-blue-600 animate-pulse",
  cancelled: "bg-slate-500",
  pending: "bg-slate-300",
  skipped: "bg-slate-300",
};

function percent(value: number, scale: WaterfallScale): string {
  return `${Math.min(100, Math.max(0, (value / scale.total) * 100))}%`;
}

/**
 * One span on the time axis (plain CSS widths): `start`..`end` in ms from the session start, and for an attempt the
 * wait before its retry, hatched. Decorative: the row's text says the same.
 */
export function WaterfallBar({
  scale,
  span,
  tone,
  retryDelayMs,
  thin,
}: {
  scale: WaterfallScale;
  span: { start: number; end: number } | null;
  tone: string;
  retryDelayMs?: number | null;
  thin?: boolean;
}) {
  return (
    <div className={cn("relative w-full rounded bg-slate-50", thin ? "h-2" : "h-3")} aria-hidden="true">
      {span ? (
        <>
          <div
            className={cn("absolute inset-y-0 min-w-[3px] rounded-sm", barTones[tone] ?? "bg-slate-500")}
            style={{ left: percent(span.start, scale), width: percent(span.end - span.start, scale) }}
          />
          {retryDelayMs ? (
            <div
              className="absolute inset-y-0 rounded-sm bg-[repeating-linear-gradient(45deg,var(--color-amber-400)_0_3px,transparent_3px_6px)]"
              style={{ left: percent(span.end, scale), width: percent(retryDelayMs, scale) }}
            />
          ) : null}
        </>
      ) : null}
    </div>
  );
}

/** The axis above the rows: the session start, quarters (not on a phone: no room), and its length. */
export function WaterfallAxis({ scale }: { scale: WaterfallScale }) {
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <div className="relative h-5 w-full text-[11px] text-slate-600" aria-hidden="true">
      {ticks.map((fraction) => (
        <span
          key={fraction}
          className={cn(
            "absolute top-0 whitespace-nowrap",
            fraction === 0 ? "" : fraction === 1 ? "-translate-x-full" : "hidden -translate-x-1/2 sm:inline",
          )}
          style={{ left: `${fraction * 100}%` }}
        >
          {formatOffset(scale.total * fraction)}
        </span>
      ))}
    </div>
  );
}

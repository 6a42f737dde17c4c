import type { SessionView } from "@/lib/sync/session-view";

/** The session's time axis: milliseconds from its start, to its end (or now while it runs). */
export interface WaterfallScale {
  origin: number;
  total: number;
  now: number;
}

export function waterfallScaleOf(view: SessionView, now: number): WaterfallScale {
  const { session } = view;
  const origin = Date.parse(session.startedAt ?? session.createdAt);
  let end = session.finishedAt ? Date.parse(session.finishedAt) : now;
  // A clock step between writers must not draw a span past the axis.
  for (const attempt of view.attempts) end = Math.max(end, Date.parse(attempt.startedAt) + attempt.durationMs + (attempt.retryDelayMs ?? 0));
  for (const step of view.steps) if (step.finishedAt) end = Math.max(end, Date.parse(step.finishedAt));
  return { origin, total: Math.max(end - origin, 1), now };
}

/** Offset of an ISO time from the session start, in ms. */
export function offsetOf(scale: WaterfallScale, time: string): number {
  return Date.parse(time) - scale.origin;
}

/** A span's [start, end] offsets; a running one ends now, one not started has none. */
export function spanOf(scale: WaterfallScale, startedAt: string | null, finishedAt: string | null): { start: number; end: number } | null {
  if (!startedAt) return null;
  const start = offsetOf(scale, startedAt);
  return { start, end: finishedAt ? offsetOf(scale, finishedAt) : scale.now - scale.origin };
}

/** "+0.000 s", "+12.345 s": an offset from the session start, to the millisecond. */
export function formatOffset(milliseconds: number): string {
  return `+${(Math.max(0, milliseconds) / 1000).toFixed(3)} s`;
}

/** "850 ms", "12,345 ms": a length, to the millisecond. */
export function formatMilliseconds(milliseconds: number): string {
  return `${Math.max(0, Math.round(milliseconds)).toLocaleString("en")} ms`;
}

/** "512 B", "4.2 KB", "1.3 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

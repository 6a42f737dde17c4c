/** "850 ms", "42 s", "3 min 05 s", "1 h 02 min": a step's or session's length at a glance. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.max(0, Math.round(milliseconds))} ms`;
  const seconds = Math.floor(milliseconds / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** From start to end, or to `nowMs` while it runs; an empty string when it has not started. */
export function durationBetween(startedAt: string | null, finishedAt: string | null, nowMs: number): string {
  if (!startedAt) return "";
  const end = finishedAt ? Date.parse(finishedAt) : nowMs;
  return formatDuration(end - Date.parse(startedAt));
}

export const WAITING_FOR_A_WORKER = "Waiting for a worker";

/**
 * A session's duration, by one rule wherever it is shown: from its start (no time before a worker took it); until then
 * "Waiting for a worker" while queued, "—" for one that ended without starting.
 */
export function sessionDuration(session: { status: string; startedAt: string | null; finishedAt: string | null }, nowMs: number): string {
  if (session.startedAt) return durationBetween(session.startedAt, session.finishedAt, nowMs);
  return session.status === "queued" ? WAITING_FOR_A_WORKER : "—";
}

import { Time } from "@/components/time/time";

/** Who paused the schedule and why are operator details: absent (undefined) for a business owner. */
export interface SchedulePause {
  at: string;
  byEmail?: string | null;
  reason?: string | null;
}

/**
 * Shown wherever a next run would be: "Paused by ana@… 2 hours ago: reason" for staff, "Paused by the support
 * team 2 hours ago" for an owner.
 */
export function SchedulePausedNote({ pause, timeZone }: { pause: SchedulePause; timeZone: string }) {
  const by = pause.byEmail === undefined ? "the support team" : (pause.byEmail ?? "someone");
  return (
    <span data-testid="schedule-paused">
      Paused by {by} <Time value={pause.at} timeZone={timeZone} />
      {pause.reason ? `: ${pause.reason}` : ""}
    </span>
  );
}

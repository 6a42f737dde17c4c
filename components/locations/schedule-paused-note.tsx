import { Time } from "@/components/time/time";

export interface SchedulePause {
  at: string;
  byEmail: string | null;
  reason: string | null;
}

/** "Paused by ana@… since 2 hours ago: reason", shown wherever a next run would be. */
export function SchedulePausedNote({ pause, timeZone }: { pause: SchedulePause; timeZone: string }) {
  return (
    <span data-testid="schedule-paused">
      Paused by {pause.byEmail ?? "someone"} since <Time value={pause.at} timeZone={timeZone} />
      {pause.reason ? `: ${pause.reason}` : ""}
    </span>
  );
}

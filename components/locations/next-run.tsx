import { Time } from "@/components/time/time";
import { SchedulePausedNote, type SchedulePause } from "./schedule-paused-note";

/**
 * The next scheduled run as the schedule will make it: none for an archived location, none until a disconnected one
 * is connected (the schedule skips a location without its token), who paused it, or the time.
 */
export function NextRun({
  nextRunAt,
  timeZone,
  archived,
  connected,
  pause,
  detailed = false,
}: {
  nextRunAt: string;
  timeZone: string;
  archived: boolean;
  connected: boolean;
  pause: SchedulePause | null;
  /** Also the date and time in full, after the weekday. */
  detailed?: boolean;
}) {
  if (archived) return <span>None: the location is archived</span>;
  if (pause) return <SchedulePausedNote pause={pause} timeZone={timeZone} />;
  if (!connected) return <span>Once the location is connected</span>;
  return (
    <span>
      <Time value={nextRunAt} timeZone={timeZone} style="weekday" />
      {detailed ? (
        <>
          {" "}
          (<Time value={nextRunAt} timeZone={timeZone} />)
        </>
      ) : null}
    </span>
  );
}

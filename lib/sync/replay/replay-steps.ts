import type { SessionReplay } from "@/db/schema";
import { earliestHeldAppointment } from "@/lib/sync/synced-records/lookups";
import { monthlyRanges, rangeKey } from "../plan/date-ranges";
import { appointmentHorizonEnd, localToday } from "../plan/local-dates";
import type { SyncStepName } from "../step-names";
import { streamedStepsByName } from "../stream/stream-steps";
import type { SyncStep } from "../steps/sync-step";

// A scoped replay sends its steps as a streamed session does (read from the source as they are sent), every record
// again (StepContext.resend: contacts and openings the upstream holds unchanged too), appointments one import per
// calendar month of the asked range (or of the whole window), clipped to today + 6 months (spec 4.4).

function appointmentRanges(replay: SessionReplay): SyncStep["planItems"] {
  return async (context) => {
    if (!context.stream) throw new Error("a replay reads from the source");
    const today = localToday(context.now, context.location.timeZone);
    const horizonEnd = appointmentHorizonEnd(context.now, context.location.timeZone);
    // Months before the first appointment of either side hold nothing to replace: a range from long ago imports none.
    const known = [await context.stream.earliestAppointment(), await earliestHeldAppointment(context.db, context.location.id)];
    const earliest = known.filter((date): date is string => date !== null).sort()[0] ?? today;
    const floor = earliest < today ? earliest : today;
    const start = replay.from !== null && replay.from > floor ? replay.from : floor;
    const end = replay.to !== null && replay.to < horizonEnd ? replay.to : horizonEnd;
    return start > end ? [] : monthlyRanges(start, end).map(rangeKey);
  };
}

export function replayStepsOf(replay: SessionReplay): Record<SyncStepName, SyncStep> {
  return { ...streamedStepsByName, appointments: { ...streamedStepsByName.appointments, planItems: appointmentRanges(replay) } };
}

import type { ConfirmedRemovals, SessionReplay } from "@/db/schema";
import { monthlyRanges, parseRangeKey, rangeKey } from "../plan/date-ranges";
import { appointmentHorizonEnd, localToday } from "../plan/local-dates";
import { measured, RemovalStopError } from "../removal-guard";
import { plannedItemsOf } from "../run-step";
import { isPending, type StepRow } from "../session-steps";
import type { SyncStepName } from "../step-names";
import { streamedStepsByName } from "../stream/stream-steps";
import { acceptedAppointmentKeysIn, countAccepted, countAcceptedAppointmentsIn, earliestHeldAppointment } from "@/lib/sync/synced-records/lookups";
import type { StepContext, SyncStep } from "../steps/sync-step";

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

/**
 * The safety valve of a replay, before anything is sent: each month it imports replaces what the upstream holds of
 * those dates. At least (held − source rows) of them go; past the limit the replay stops, unless a person confirmed
 * that many. A source query that comes back empty for the range cannot wipe it.
 */
export async function checkReplayRemovals(
  context: StepContext,
  steps: readonly StepRow[],
  replay: SessionReplay,
  confirmed: ConfirmedRemovals | null,
): Promise<void> {
  const step = steps.find((candidate) => candidate.name === "appointments" && isPending(candidate));
  if (!step || !context.stream) return;
  const items = (await plannedItemsOf(context, step, replayStepsOf(replay).appointments)).filter((item) => item.status !== "succeeded");
  if (!items.length) return;
  const ranges = items.map((item) => parseRangeKey(item.key));
  const window = { startDate: ranges[0]!.startDate, endDate: ranges.at(-1)!.endDate };
  const locationId = context.location.id;
  const removals = Math.max(
    0,
    (await countAcceptedAppointmentsIn(context.db, locationId, window)) - (await context.stream.count("appointments", window)),
  );
  const check = await measured(
    context.config,
    "appointments",
    removals,
    (atMost) => countAccepted(context.db, locationId, "appointments", atMost),
    () => acceptedAppointmentKeysIn(context.db, locationId, window, 5),
  );
  if (check && check.removals > (confirmed?.limits.appointments ?? -1)) throw new RemovalStopError({ checks: [check] });
}

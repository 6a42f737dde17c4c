import type { ConfirmedRemovals, RemovalCheck, SessionReplay } from "@/db/schema";
import { monthlyRanges, parseRangeKey, rangeKey } from "../plan/date-ranges";
import { appointmentHorizonEnd, localToday } from "../plan/local-dates";
import { measured, RemovalStopError } from "../removal-guard";
import { plannedItemsOf } from "../run-step";
import { isPending, type StepRow } from "../session-steps";
import type { SyncStepName } from "../step-names";
import { streamedStepsByName } from "../stream/stream-steps";
import { acceptedNotAmong, countAccepted, earliestHeldAppointment } from "@/lib/sync/synced-records/lookups";
import { isSendable } from "@/lib/pipeline/record-status";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import type { DateWindow } from "../stream/session-records";
import { guardedRead } from "../stream/source-failure";
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

/** The sendable keys a scope of the replay sends (read as its step will read it, which then replaces this read's counts). */
async function sendableKeys(context: StepContext, type: PreviewRecordType, scope: string, window?: DateWindow): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of guardedRead(context.stream!.read(type, scope, window), type.replace("_", " ")))
    for (const record of batch) if (isSendable(record)) keys.push(record.record_key!);
  return keys;
}

const replacedTypes = ["calendars", "service_categories", "services"] as const;

/**
 * The safety valve of a replay, before anything is sent: a full replacement it sends (calendars, categories, services)
 * removes what the upstream holds that the source no longer sends, and each month it imports replaces what the upstream
 * holds of those dates. These are counted from the records the replay will send, read from the source as its steps
 * will read them (a month at a time): an appointment the checks leave out (its customer missing from a broken customers
 * query) is removed as surely as one the source no longer has. Past the limit the replay stops, unless a person
 * confirmed that many. A source query that comes back empty or broken for the range cannot wipe it.
 */
export async function checkReplayRemovals(
  context: StepContext,
  steps: readonly StepRow[],
  replay: SessionReplay,
  confirmed: ConfirmedRemovals | null,
): Promise<void> {
  if (!context.stream) return;
  const locationId = context.location.id;
  const pending = (name: SyncStepName) => steps.find((candidate) => candidate.name === name && isPending(candidate));
  const removedOf = async (type: RemovalCheck["step"], scopes: { scope: string; window?: DateWindow }[]) => {
    let count = 0;
    const examples: string[] = [];
    for (const { scope, window } of scopes) {
      const keys = await sendableKeys(context, type, scope, window);
      const removed = await acceptedNotAmong(context.db, locationId, { type, keys, window, limit: 5 });
      count += removed.count;
      examples.push(...removed.examples);
    }
    return measured(
      context.config,
      type,
      count,
      (atMost) => countAccepted(context.db, locationId, type, atMost),
      async () => examples.sort().slice(0, 5),
    );
  };
  const checks: (RemovalCheck | null)[] = [];
  for (const type of replacedTypes) if (pending(type)) checks.push(await removedOf(type, [{ scope: type }]));
  const step = pending("appointments");
  if (step) {
    const items = (await plannedItemsOf(context, step, replayStepsOf(replay).appointments)).filter((item) => item.status !== "succeeded");
    checks.push(
      await removedOf(
        "appointments",
        items.map((item) => ({ scope: item.key, window: parseRangeKey(item.key) })),
      ),
    );
  }
  const tripped = checks.filter((check): check is RemovalCheck => check !== null && check.removals > (confirmed?.limits[check.step] ?? -1));
  if (tripped.length) throw new RemovalStopError({ checks: tripped });
}

import type { ConfirmedRemovals, RemovalCheck } from "@/db/schema";
import { isSendable } from "@/lib/pipeline/record-status";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { acceptedNotAmong, anyAppointmentAcceptedIn, anythingAccepted, countAccepted } from "@/lib/sync/synced-records/lookups";
import { parseRangeKey } from "../plan/date-ranges";
import { measured, RemovalStopError } from "../removal-guard";
import { plannedItemsOf } from "../run-step";
import { isPending, type StepRow } from "../session-steps";
import type { SyncStepName } from "../step-names";
import type { StepContext, SyncStep } from "../steps/sync-step";
import type { DateWindow } from "./session-records";
import { guardedRead } from "./source-failure";

/** The sendable keys one read of the session sends (read as its step will read it, which then replaces this read's counts). */
async function sendableKeys(context: StepContext, type: PreviewRecordType, scope: string, window?: DateWindow): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of guardedRead(context.stream!.read(type, scope, window), type.replace("_", " ")))
    for (const record of batch) if (isSendable(record) && record.record_key !== null) keys.push(record.record_key);
  return keys;
}

const replacedTypes = ["calendars", "service_categories", "services"] as const;

/**
 * The safety valve of a session sent straight from the source (a replay, a resume or takeover of a first sync; a quiet
 * session removes nothing and is not checked), before anything is sent: a full replacement it sends (calendars, categories, services) removes what the
 * upstream holds that the source no longer sends, and each appointment import replaces what the upstream holds of its
 * dates. Counted from the records the session will send, read from the source as its steps will read them (a month at
 * a time): an appointment the checks leave out (its customer missing from a broken customers query) is removed as
 * surely as one the source no longer has. Only what the upstream holds is read for: a first sync reads nothing twice.
 * Past the limit, or everything (two or more records) the upstream holds of a type while sending none of it, the
 * session stops unless a person confirmed that many.
 */
export async function checkStreamedRemovals(
  context: StepContext,
  steps: readonly StepRow[],
  definitions: Record<SyncStepName, SyncStep>,
  confirmed: ConfirmedRemovals | null,
): Promise<void> {
  if (!context.stream) return;
  const { db } = context;
  const locationId = context.location.id;
  const pending = (name: SyncStepName) => steps.find((candidate) => candidate.name === name && isPending(candidate));
  const removedOf = async (type: RemovalCheck["step"], scopes: { scope: string; window?: DateWindow }[]) => {
    let count = 0;
    let sent = 0;
    // Removals of the date ranges whose import would send nothing: everything the upstream holds of those dates.
    let wiped = 0;
    const examples: string[] = [];
    for (const { scope, window } of scopes) {
      const keys = await sendableKeys(context, type, scope, window);
      context.stream!.forget(scope);
      sent += keys.length;
      const removed = await acceptedNotAmong(db, locationId, { type, keys, window, limit: 5 });
      count += removed.count;
      if (window && keys.length === 0) wiped += removed.count;
      examples.push(...removed.examples);
    }
    const countHeld = (atMost?: number) => countAccepted(db, locationId, type, atMost);
    const check = await measured(
      context.config,
      type,
      count,
      countHeld,
      async () => examples.sort().slice(0, 5),
      async () => sent === 0,
    );
    // Each import replaces its dates: one whose source query came back empty (two or more held there) would wipe
    // them, however small a share of the location they are.
    if (check || wiped < 2) return check;
    return { step: type, removals: count, held: await countHeld(), threshold: count - 1, examples: examples.sort().slice(0, 5) };
  };
  const checks: (RemovalCheck | null)[] = [];
  for (const type of replacedTypes)
    if (pending(type) && (await anythingAccepted(db, locationId, type))) checks.push(await removedOf(type, [{ scope: type }]));
  const step = pending("appointments");
  if (step && (await anythingAccepted(db, locationId, "appointments"))) {
    // The contacts the appointments name are read through the checks first when the session sends them too (else
    // they were read already, or are what the upstream holds): unread, every appointment would look unsendable.
    if (pending("contact_details")) {
      for await (const batch of guardedRead(context.stream.read("contact_details", "contact_details"), "contact details")) void batch;
      context.stream.forget("contact_details");
    }
    const items = (await plannedItemsOf(context, step, definitions.appointments)).filter((item) => item.status !== "succeeded");
    const scopes = [];
    for (const item of items) {
      const window = parseRangeKey(item.key);
      // A range the upstream holds nothing of loses nothing: not read twice.
      if (await anyAppointmentAcceptedIn(db, locationId, window)) scopes.push({ scope: item.key, window });
    }
    checks.push(await removedOf("appointments", scopes));
  }
  const tripped = checks.filter((check): check is RemovalCheck => check !== null && check.removals > (confirmed?.limits[check.step] ?? -1));
  if (tripped.length) throw new RemovalStopError({ checks: tripped });
}

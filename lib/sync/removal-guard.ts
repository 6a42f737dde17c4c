import type { ConfirmedRemovals, RemovalCheck, RemovalStop } from "@/db/schema";
import { sendsAnyOf } from "@/lib/preview/preview-record-counts";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { countAccepted } from "@/lib/sync/synced-records/lookups";
import {
  countGoneContacts,
  countRemovedAppointments,
  countRemovedByType,
  goneContactKeys,
  listRemovedRecords,
  removedAppointmentKeys,
} from "@/lib/sync/synced-records/removed-records";
import { parseRangeKey } from "./plan/date-ranges";
import { UNSUBSCRIBE_ITEM_KEY } from "./plan/gone-contacts";
import { plannedItemsOf } from "./run-step";
import { isPending, type StepRow } from "./session-steps";
import { stepsByName } from "./steps/all-steps";
import { plannedAppointmentRemovals } from "./steps/bulk-steps";
import type { StepContext } from "./steps/sync-step";
import type { SyncConfig } from "./sync-config";
import { settleAll } from "@/lib/operations/settle-all";
import { assertPreviewStore } from "@/lib/preview/preview-store";

const EXAMPLES = 5;

/** The valve stopped the session before anything was sent: a person confirms, or fixes the source. */
export class RemovalStopError extends Error {
  constructor(readonly stop: RemovalStop) {
    super(describeRemovalStop(stop));
    this.name = "RemovalStopError";
  }
}

const number = (value: number) => value.toLocaleString("en");

const nounOf: Record<RemovalCheck["step"], string> = {
  calendars: "calendars",
  service_categories: "service categories",
  services: "services",
  contact_details: "contacts",
  appointments: "appointments",
};

function describeCheck(check: RemovalCheck): string {
  const what = check.step === "contact_details" ? "unsubscribe" : "remove";
  return `${what} ${number(check.removals)} of the ${number(check.held)} ${nounOf[check.step]} the upstream holds (more than ${number(check.threshold)}; e.g. ${check.examples.join(", ")})`;
}

export function describeRemovalStop(stop: RemovalStop): string {
  return `Stopped before sending anything: it would ${stop.checks.map(describeCheck).join(" and ")}. Confirm and send, or fix the source`;
}

/**
 * More than `percent` of what the upstream holds and at least `minimum` records; or, where the step sends nothing of
 * the type, everything the upstream holds of it when that is more than one record (a source query that came back
 * empty, at a location of a few records or for a type of a few: its calendars). A step that replaces the one calendar
 * held by another sends one; the only category deleted is ordinary churn.
 */
export function removalLimit(
  held: number,
  config: Pick<SyncConfig, "removalThresholdPercent" | "removalThresholdMinimum">,
  sendsNone = false,
): number {
  const limit = Math.max(Math.floor((held * config.removalThresholdPercent) / 100), config.removalThresholdMinimum - 1);
  return sendsNone && held > 1 ? Math.min(limit, held - 1) : limit;
}

/**
 * Under the minimum only a step that sends nothing and removes everything trips the valve: what the upstream holds is
 * then counted no further than that.
 */
export async function measured(
  config: Pick<SyncConfig, "removalThresholdPercent" | "removalThresholdMinimum">,
  step: RemovalCheck["step"],
  removals: number,
  countHeld: (atMost?: number) => Promise<number>,
  examples: () => Promise<string[]>,
  sendsNone: () => Promise<boolean> = async () => false,
): Promise<RemovalCheck | null> {
  if (removals === 0) return null;
  const underMinimum = removals < config.removalThresholdMinimum;
  if (underMinimum && (removals < 2 || !(await sendsNone()))) return null;
  const held = await countHeld(underMinimum ? removals + 1 : undefined);
  const threshold = removalLimit(held, config, underMinimum);
  return removals > threshold ? { step, removals, held, threshold, examples: await examples() } : null;
}

/** The session's preview sends no record of the type. */
const sendsNoneOf = (context: StepContext, type: PreviewRecordType) => async () => !(await sendsAnyOf(context.db, context.location.id, type));

async function checkContacts(context: StepContext): Promise<RemovalCheck | null> {
  const { db, unsyncedOnly } = context;
  const locationId = context.location.id;
  return measured(
    context.config,
    "contact_details",
    await countGoneContacts(db, locationId, unsyncedOnly),
    (atMost) => countAccepted(db, locationId, "contact_details", atMost),
    () => goneContactKeys(db, locationId, unsyncedOnly, EXAMPLES),
    sendsNoneOf(context, "contact_details"),
  );
}

/** Accepted appointments in the ranges this session replaces that no usable record will send again. */
async function checkAppointments(context: StepContext, rangeKeys: string[]): Promise<RemovalCheck | null> {
  const { db } = context;
  const locationId = context.location.id;
  const ranges = rangeKeys.map(parseRangeKey);
  const planned = plannedAppointmentRemovals.get(context);
  const count = planned
    ? [...planned].reduce((sum, [day, removals]) => sum + (ranges.some((range) => range.startDate <= day && day <= range.endDate) ? removals : 0), 0)
    : await countRemovedAppointments(db, locationId, ranges);
  return measured(
    context.config,
    "appointments",
    count,
    (atMost) => countAccepted(db, locationId, "appointments", atMost),
    () => removedAppointmentKeys(db, locationId, ranges, EXAMPLES),
    sendsNoneOf(context, "appointments"),
  );
}

const catalogueSteps = ["calendars", "service_categories", "services"] as const;

/** Full replacements: the accepted records of a type that the set the step sends leaves out, removed upstream. */
async function checkCatalogues(context: StepContext, types: readonly (typeof catalogueSteps)[number][]): Promise<RemovalCheck[]> {
  if (!types.length) return [];
  const { db } = context;
  const locationId = context.location.id;
  const removed = await countRemovedByType(db, locationId, types);
  const checks = await Promise.all(
    types.map((type) =>
      measured(
        context.config,
        type,
        removed.get(type) ?? 0,
        (atMost) => countAccepted(db, locationId, type, atMost),
        async () => (await listRemovedRecords(db, locationId, type)).items.slice(0, EXAMPLES).map((record) => record.recordKey),
        sendsNoneOf(context, type),
      ),
    ),
  );
  return checks.filter((check) => check !== null);
}

/**
 * The safety valve, before the session sends anything: a step that would unsubscribe contacts, or remove appointments,
 * calendars, service categories or services from the upstream, beyond the limit (of what the upstream holds) stops the
 * session unless a person confirmed at least that many. A source query that suddenly returns nothing must never wipe a location. The steps' items are
 * planned here, once: the steps send exactly what was checked.
 */
export async function checkRemovals(context: StepContext, steps: readonly StepRow[], confirmed: ConfirmedRemovals | null): Promise<void> {
  const pendingItems = async (name: RemovalCheck["step"]) => {
    const step = steps.find((candidate) => candidate.name === name && isPending(candidate));
    return step ? (await plannedItemsOf(context, step, stepsByName[name])).filter((item) => item.status !== "succeeded").map((item) => item.key) : [];
  };
  // The two steps' plans and checks read different records: each on its own connection, at the same time (both end
  // before the session goes on, whichever fails).
  const catalogues = catalogueSteps.filter((type) => steps.some((step) => step.name === type && isPending(step)));
  const [catalogueChecks, contactCheck, appointmentCheck] = await settleAll([
    checkCatalogues(context, catalogues),
    pendingItems("contact_details").then((items) => (items.includes(UNSUBSCRIBE_ITEM_KEY) ? checkContacts(context) : null)),
    pendingItems("appointments").then((items) => (items.length ? checkAppointments(context, items) : null)),
  ]);
  const found = [...catalogueChecks, contactCheck, appointmentCheck];
  // Counted from preview records a crash emptied meanwhile, every customer would look gone: that is no removal to confirm.
  if (context.previewEpoch) await assertPreviewStore(context.db, context.previewEpoch);
  const tripped = found.filter((check): check is RemovalCheck => check !== null && check.removals > (confirmed?.limits[check.step] ?? -1));
  if (tripped.length) throw new RemovalStopError({ checks: tripped });
}

import { queryRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import type { ConfirmedRemovals, RemovalCheck, RemovalStop } from "@/db/schema";
import { UNSUBSCRIBED_HASH } from "@/lib/preview/live-diff";
import { parseRangeKey } from "./plan/date-ranges";
import { goneContactCondition, UNSUBSCRIBE_ITEM_KEY } from "./plan/gone-contacts";
import { plannedItemsOf } from "./run-step";
import { isPending, type StepRow } from "./session-steps";
import { stepsByName } from "./steps/all-steps";
import { plannedAppointmentRemovals } from "./steps/bulk-steps";
import type { StepContext } from "./steps/sync-step";
import type { SyncConfig } from "./sync-config";
import { notSentAgain } from "@/lib/preview/live-diff";

const EXAMPLES = 5;

/** The valve stopped the session before anything was sent: a person confirms, or fixes the source. */
export class RemovalStopError extends Error {
  constructor(readonly stop: RemovalStop) {
    super(describeRemovalStop(stop));
    this.name = "RemovalStopError";
  }
}

const number = (value: number) => value.toLocaleString("en");

function describeCheck(check: RemovalCheck): string {
  const what = check.step === "contact_details" ? "unsubscribe" : "remove";
  const noun = check.step === "contact_details" ? "contacts" : "appointments";
  return `${what} ${number(check.removals)} of the ${number(check.held)} ${noun} the upstream holds (more than ${number(check.threshold)}; e.g. ${check.examples.join(", ")})`;
}

export function describeRemovalStop(stop: RemovalStop): string {
  return `Stopped before sending anything: it would ${stop.checks.map(describeCheck).join(" and ")}. Confirm and send, or fix the source`;
}

/** More than `percent` of what the upstream holds, and at least `minimum` records. */
export function removalLimit(held: number, config: Pick<SyncConfig, "removalThresholdPercent" | "removalThresholdMinimum">): number {
  return Math.max(Math.floor((held * config.removalThresholdPercent) / 100), config.removalThresholdMinimum - 1);
}

/** Only a count past the minimum can trip the valve: what the upstream holds is counted only then. */
export async function measured(
  config: Pick<SyncConfig, "removalThresholdPercent" | "removalThresholdMinimum">,
  step: RemovalCheck["step"],
  removals: number,
  countHeld: () => Promise<number>,
  examples: () => Promise<string[]>,
): Promise<RemovalCheck | null> {
  if (removals < config.removalThresholdMinimum) return null;
  const held = await countHeld();
  const threshold = removalLimit(held, config);
  return removals > threshold ? { step, removals, held, threshold, examples: await examples() } : null;
}

async function checkContacts(context: StepContext): Promise<RemovalCheck | null> {
  const { db } = context;
  const locationId = context.location.id;
  const [gone] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from synced_records s where ${goneContactCondition(locationId, context.unsyncedOnly)}`,
  );
  return measured(
    context.config,
    "contact_details",
    gone!.count,
    async () =>
      (
        await queryRows<{ count: number }>(
          db,
          sql`select count(*)::int as count from synced_records
        where location_id = ${locationId} and record_type = 'contact_details' and content_hash <> ${UNSUBSCRIBED_HASH}`,
        )
      )[0]!.count,
    async () =>
      (
        await queryRows<{ key: string }>(
          db,
          sql`select s.record_key as key from synced_records s where ${goneContactCondition(locationId, context.unsyncedOnly)} order by s.record_key limit ${EXAMPLES}`,
        )
      ).map((row) => row.key),
  );
}

/** Accepted appointments in the ranges this session replaces that no usable record will send again. */
async function checkAppointments(context: StepContext, rangeKeys: string[]): Promise<RemovalCheck | null> {
  const { db } = context;
  const locationId = context.location.id;
  const ranges = rangeKeys.map(parseRangeKey);
  // The ranges as plain conditions: the planner then reads only their dates through synced_records_date_idx (joined to a
  // set-returning function it guessed 100 ranges and read every appointment of the location, ~0.8 s at a million).
  const inRanges = sql.join(
    ranges.map((range) => sql`s.appointment_date between ${range.startDate} and ${range.endDate}`),
    sql` or `,
  );
  const removed = () => sql`
    from synced_records s
    where s.location_id = ${locationId} and s.record_type = 'appointments' and (${inRanges})
      and ${sql.raw(notSentAgain)}`;
  const planned = plannedAppointmentRemovals.get(context);
  const count = planned
    ? [...planned].reduce((sum, [day, removals]) => sum + (ranges.some((range) => range.startDate <= day && day <= range.endDate) ? removals : 0), 0)
    : (await queryRows<{ count: number }>(db, sql`select count(*)::int as count ${removed()}`))[0]!.count;
  return measured(
    context.config,
    "appointments",
    count,
    async () =>
      (
        await queryRows<{ count: number }>(
          db,
          sql`select count(*)::int as count from synced_records where location_id = ${locationId} and record_type = 'appointments'`,
        )
      )[0]!.count,
    async () =>
      (await queryRows<{ key: string }>(db, sql`select s.record_key as key ${removed()} order by s.record_key limit ${EXAMPLES}`)).map(
        (row) => row.key,
      ),
  );
}

/**
 * The safety valve, before the session sends anything: a step that would unsubscribe contacts, or remove appointments
 * from the upstream, beyond the limit (of what the upstream holds) stops the session unless a person confirmed at
 * least that many. A source query that suddenly returns nothing must never wipe a location. The steps' items are
 * planned here, once: the steps send exactly what was checked.
 */
export async function checkRemovals(context: StepContext, steps: readonly StepRow[], confirmed: ConfirmedRemovals | null): Promise<void> {
  const pendingItems = async (name: RemovalCheck["step"]) => {
    const step = steps.find((candidate) => candidate.name === name && isPending(candidate));
    return step ? (await plannedItemsOf(context, step, stepsByName[name])).filter((item) => item.status !== "succeeded").map((item) => item.key) : [];
  };
  // The two steps' plans and checks read different records: each on its own connection, at the same time (both end
  // before the session goes on, whichever fails).
  const settled = await Promise.allSettled([
    pendingItems("contact_details").then((items) => (items.includes(UNSUBSCRIBE_ITEM_KEY) ? checkContacts(context) : null)),
    pendingItems("appointments").then((items) => (items.length ? checkAppointments(context, items) : null)),
  ]);
  const failed = settled.find((outcome) => outcome.status === "rejected");
  if (failed) throw failed.reason;
  const found = settled.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : null));
  const tripped = found.filter((check): check is RemovalCheck => check !== null && check.removals > (confirmed?.limits[check.step] ?? -1));
  if (tripped.length) throw new RemovalStopError({ checks: tripped });
}

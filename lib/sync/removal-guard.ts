import type postgres from "postgres";
import type { ConfirmedRemovals, RemovalCheck, RemovalStop } from "@/db/schema";
import { UNSUBSCRIBED_HASH } from "@/lib/preview/live-diff";
import { parseRangeKey } from "./plan/date-ranges";
import { goneContactCondition } from "./plan/gone-contacts";
import type { StepRow } from "./session-steps";
import type { StepContext } from "./steps/sync-step";
import { appointmentItemKeys } from "./steps/bulk-steps";
import type { SyncConfig } from "./sync-config";

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

async function contactRemovals(sql: postgres.Sql, locationId: string) {
  const [row] = await sql<{ removals: number; held: number }[]>`
    select (select count(*)::int from synced_records s where ${goneContactCondition(sql, locationId)}) as removals,
           (select count(*)::int from synced_records s where s.location_id = ${locationId} and s.record_type = 'contact_details'
              and s.content_hash <> ${UNSUBSCRIBED_HASH}) as held`;
  const examples = await sql<{ key: string }[]>`
    select s.record_key as key from synced_records s where ${goneContactCondition(sql, locationId)} order by s.record_key limit ${EXAMPLES}`;
  return { removals: row!.removals, held: row!.held, examples: examples.map((example) => example.key) };
}

/** Accepted appointments in the ranges this session replaces that no usable record will send again. */
async function appointmentRemovals(sql: postgres.Sql, locationId: string, rangeKeys: string[]) {
  const ranges = rangeKeys.map(parseRangeKey);
  const removed = sql`
    from synced_records s
    join jsonb_to_recordset(${JSON.stringify(ranges)}::jsonb) as g("startDate" date, "endDate" date)
      on s.appointment_date between g."startDate" and g."endDate"
    where s.location_id = ${locationId} and s.record_type = 'appointments'
      and not exists (select 1 from preview_records r where r.location_id = s.location_id and r.record_type = 'appointments'
                      and r.record_key = s.record_key and r.status in ('valid', 'warning'))`;
  const [row] = await sql<{ removals: number; held: number }[]>`
    select (select count(*)::int ${removed}) as removals,
           (select count(*)::int from synced_records where location_id = ${locationId} and record_type = 'appointments') as held`;
  const examples = await sql<{ key: string }[]>`select s.record_key as key ${removed} order by s.record_key limit ${EXAMPLES}`;
  return { removals: row!.removals, held: row!.held, examples: examples.map((example) => example.key) };
}

/**
 * The safety valve, before the session sends anything: a step that would unsubscribe contacts, or remove appointments
 * from the upstream, beyond the limit (of what the upstream holds) stops the session unless a person confirmed at
 * least that many. A source query that suddenly returns nothing must never wipe a location.
 */
export async function checkRemovals(context: StepContext, steps: readonly StepRow[], confirmed: ConfirmedRemovals | null): Promise<void> {
  const pending = (name: RemovalCheck["step"]) => steps.some((step) => step.name === name && step.status !== "succeeded" && step.status !== "skipped");
  const found: RemovalCheck[] = [];
  if (pending("contact_details")) found.push({ step: "contact_details", ...(await contactRemovals(context.sql, context.location.id)), threshold: 0 });
  if (pending("appointments")) {
    found.push({ step: "appointments", ...(await appointmentRemovals(context.sql, context.location.id, await appointmentItemKeys(context))), threshold: 0 });
  }
  const tripped = found
    .map((check) => ({ ...check, threshold: removalLimit(check.held, context.config) }))
    .filter((check) => check.removals > check.threshold && check.removals > (confirmed?.limits[check.step] ?? -1));
  if (tripped.length) throw new RemovalStopError({ checks: tripped });
}

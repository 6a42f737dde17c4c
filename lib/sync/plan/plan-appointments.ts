import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import { chooseAppointmentRanges, type AppointmentPlanMode } from "./choose-appointment-ranges";
import { rangeKey } from "./date-ranges";
import { amongUnsyncedKeys } from "../unsynced-keys";

const sendable = "('valid', 'warning')";

/** The appointment imports of a session, as date-range keys, from the location's preview records and what was last accepted. */
export async function planAppointments(
  db: DatabaseOrTransaction,
  input: { locationId: string; full: boolean; unsyncedOnly: boolean; today: string; horizonEnd: string },
): Promise<{ mode: AppointmentPlanMode; keys: string[] }> {
  const { locationId } = input;
  // Existence and the earliest date are index look-ups (synced_records_date_idx, preview_records_date_idx), not counts.
  const [synced] = await queryRows<{ any_synced: boolean; any_without_date: boolean; earliest: string | null }>(
    db,
    sql`
    select exists (select 1 from synced_records where location_id = ${locationId} and record_type = 'appointments') as any_synced,
           exists (select 1 from synced_records where location_id = ${locationId} and record_type = 'appointments' and appointment_date is null) as any_without_date,
           (select min(appointment_date)::text from synced_records where location_id = ${locationId} and record_type = 'appointments') as earliest`,
  );
  const [valid] = await queryRows<{ earliest: string | null }>(
    db,
    sql`
    select min(local_date)::text as earliest from preview_records
    where location_id = ${locationId} and record_type = 'appointments' and status in ${sql.raw(sendable)}`,
  );
  // Touched, in one pass over both sides: the date of every sendable record whose content the upstream has not
  // accepted (new, changed, moved), the date a changed one was sent for, and the date of every accepted
  // appointment that is no longer sendable (canceled, no-show, deleted).
  // Among the unsynced keys when they are known: the same dates, without reading the whole location (lib/sync/unsynced-keys.ts).
  const preview = input.unsyncedOnly ? sql`and ${amongUnsyncedKeys(locationId, "appointments", sql`record_key`)}` : sql``;
  const touched = await queryRows<{ date: string }>(
    db,
    sql`
    select distinct dates.day::text as date from (
      select r.local_date as new_date, s.appointment_date as sent_date
      from (select record_key, content_hash, local_date from preview_records
            where location_id = ${locationId} and record_type = 'appointments' and status in ${sql.raw(sendable)} and content_hash is not null ${preview}) r
      full join (select record_key, content_hash, appointment_date from synced_records
                 where location_id = ${locationId} and record_type = 'appointments' ${preview}) s on s.record_key = r.record_key
      where s.content_hash is distinct from r.content_hash
    ) differing cross join lateral (values (differing.new_date), (differing.sent_date)) as dates(day)
    where dates.day is not null
    order by 1`,
  );
  const earliest = [valid?.earliest, input.full ? synced?.earliest : null].filter((date): date is string => Boolean(date)).sort()[0] ?? null;
  const plan = chooseAppointmentRanges({
    full: input.full,
    anySynced: synced?.any_synced ?? false,
    anySyncedWithoutDate: synced?.any_without_date ?? false,
    earliestDate: earliest,
    touchedDates: touched.map((row) => row.date),
    today: input.today,
    horizonEnd: input.horizonEnd,
  });
  return { mode: plan.mode, keys: plan.ranges.map(rangeKey) };
}

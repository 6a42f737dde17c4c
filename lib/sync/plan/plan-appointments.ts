import type postgres from "postgres";
import { chooseAppointmentRanges, type AppointmentPlanMode } from "./choose-appointment-ranges";
import { rangeKey } from "./date-ranges";

const sendable = "('valid', 'warning')";

/** The appointment imports of a session, as date-range keys, from the location's preview records and what was last accepted. */
export async function planAppointments(
  sql: postgres.Sql,
  input: { locationId: string; full: boolean; today: string; horizonEnd: string },
): Promise<{ mode: AppointmentPlanMode; keys: string[] }> {
  const { locationId } = input;
  const [synced] = await sql<{ count: number; without_date: number; earliest: string | null }[]>`
    select count(*)::int as count, count(*) filter (where appointment_date is null)::int as without_date, min(appointment_date)::text as earliest
    from synced_records where location_id = ${locationId} and record_type = 'appointments'`;
  const [valid] = await sql<{ earliest: string | null }[]>`
    select min(local_date)::text as earliest from preview_records
    where location_id = ${locationId} and record_type = 'appointments' and status in ${sql.unsafe(sendable)}`;
  // Touched: the date of every sendable record whose content the upstream has not accepted (new, changed,
  // moved), the date a changed one was sent for, and the date of every accepted appointment that is no
  // longer sendable (canceled, no-show, deleted).
  const touched = await sql<{ date: string }[]>`
    select distinct dates.day::text as date from (
      select r.local_date as new_date, s.appointment_date as sent_date
      from preview_records r
      left join synced_records s on s.location_id = r.location_id and s.record_type = r.record_type and s.record_key = r.record_key
      where r.location_id = ${locationId} and r.record_type = 'appointments' and r.status in ${sql.unsafe(sendable)}
        and r.content_hash is not null and s.content_hash is distinct from r.content_hash
    ) changed cross join lateral (values (changed.new_date), (changed.sent_date)) as dates(day)
    where dates.day is not null
    union
    select s.appointment_date::text from synced_records s
    where s.location_id = ${locationId} and s.record_type = 'appointments' and s.appointment_date is not null and not exists (
      select 1 from preview_records r where r.location_id = s.location_id and r.record_type = 'appointments'
        and r.record_key = s.record_key and r.status in ${sql.unsafe(sendable)})
    order by 1`;
  const earliest = [valid?.earliest, input.full ? synced?.earliest : null].filter((date): date is string => Boolean(date)).sort()[0] ?? null;
  const plan = chooseAppointmentRanges({
    full: input.full,
    syncedCount: synced?.count ?? 0,
    syncedWithoutDate: synced?.without_date ?? 0,
    earliestDate: earliest,
    touchedDates: touched.map((row) => row.date),
    today: input.today,
    horizonEnd: input.horizonEnd,
  });
  return { mode: plan.mode, keys: plan.ranges.map(rangeKey) };
}

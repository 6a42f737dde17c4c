import type postgres from "postgres";
import { chooseAppointmentRanges, type AppointmentPlanMode } from "./choose-appointment-ranges";
import { rangeKey } from "./date-ranges";

const sendable = "('valid', 'warning')";

/** The appointment imports of a session, as date-range keys, from the preview run and what was last accepted. */
export async function planAppointments(
  sql: postgres.Sql,
  input: { runId: string; locationId: string; full: boolean; today: string; horizonEnd: string },
): Promise<{ mode: AppointmentPlanMode; keys: string[] }> {
  const { runId, locationId } = input;
  const [synced] = await sql<{ count: number; without_date: number; earliest: string | null }[]>`
    select count(*)::int as count, count(*) filter (where appointment_date is null)::int as without_date, min(appointment_date)::text as earliest
    from synced_records where location_id = ${locationId} and record_type = 'appointments'`;
  const [valid] = await sql<{ earliest: string | null }[]>`
    select min(local_date)::text as earliest from preview_records
    where run_id = ${runId} and record_type = 'appointments' and status in ${sql.unsafe(sendable)}`;
  // Touched: new and changed records (their new date), the date a changed one was sent for, and
  // the date of every accepted appointment that is no longer sendable (canceled, no-show, deleted).
  const touched = await sql<{ date: string }[]>`
    select distinct date::text as date from (
      select r.local_date as date from preview_records r
      where r.run_id = ${runId} and r.record_type = 'appointments' and r.status in ${sql.unsafe(sendable)} and r.diff in ('new', 'changed')
      union
      select s.appointment_date from synced_records s
      join preview_records r on r.run_id = ${runId} and r.record_type = 'appointments' and r.record_key = s.record_key
        and r.status in ${sql.unsafe(sendable)} and r.diff = 'changed'
      where s.location_id = ${locationId} and s.record_type = 'appointments'
      union
      select s.appointment_date from synced_records s
      where s.location_id = ${locationId} and s.record_type = 'appointments' and not exists (
        select 1 from preview_records r where r.run_id = ${runId} and r.record_type = 'appointments'
          and r.record_key = s.record_key and r.status in ${sql.unsafe(sendable)})
    ) dates where date is not null order by 1`;
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

import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import { sendableStatusList } from "@/lib/pipeline/record-status-sql";
import { chooseAppointmentRanges, type AppointmentPlanMode } from "./choose-appointment-ranges";
import { rangeKey } from "./date-ranges";
import { differingAppointments } from "@/lib/preview/live-diff";

export interface AppointmentPlan {
  mode: AppointmentPlanMode;
  keys: string[];
  /**
   * Planned from the unsynced keys: per touched day, the accepted appointments of that day that no sendable record
   * sends again (what the removal valve counts, lib/sync/removal-guard.ts). Only unsynced keys can be such: every other
   * accepted key has a sendable record with the same content. Null when planned from the whole comparison.
   */
  removedByDay: ReadonlyMap<string, number> | null;
}

/** The appointment imports of a session, as date-range keys, from the location's preview records and what was last accepted. */
export async function planAppointments(
  db: DatabaseOrTransaction,
  input: { locationId: string; full: boolean; unsyncedOnly: boolean; today: string; horizonEnd: string },
): Promise<AppointmentPlan> {
  const { locationId } = input;
  // Existence and the earliest date are index look-ups (synced_records_date_idx, preview_records_date_idx), not counts;
  // a date missing is the index's last entry (nulls sort last): "appointment_date is null" read the whole table, the
  // planner counting the contacts' null dates as the appointments'. That last entry also says whether any appointment
  // was accepted: a bare exists() read the table from its start, the 200,000 contacts a first sync recorded first.
  const [synced] = await queryRows<{ last_date_missing: boolean | null; earliest: string | null }>(
    db,
    sql`
    select (select appointment_date is null from synced_records where location_id = ${locationId} and record_type = 'appointments'
            order by appointment_date desc nulls first limit 1) as last_date_missing,
           (select min(appointment_date)::text from synced_records where location_id = ${locationId} and record_type = 'appointments') as earliest`,
  );
  const [valid] = await queryRows<{ earliest: string | null }>(
    db,
    sql`
    select min(local_date)::text as earliest from preview_records
    where location_id = ${locationId} and record_type = 'appointments' and status in ${sendableStatusList}`,
  );
  const touched = await queryRows<{ date: string; removed: number }>(
    db,
    input.unsyncedOnly ? touchedAmongUnsynced(locationId) : touchedAnywhere(locationId),
  );
  const earliest = [valid?.earliest, input.full ? synced?.earliest : null].filter((date): date is string => Boolean(date)).sort()[0] ?? null;
  const plan = chooseAppointmentRanges({
    full: input.full,
    anySynced: synced?.last_date_missing != null,
    anySyncedWithoutDate: synced?.last_date_missing ?? false,
    earliestDate: earliest,
    touchedDates: touched.map((row) => row.date),
    today: input.today,
    horizonEnd: input.horizonEnd,
  });
  return {
    mode: plan.mode,
    keys: plan.ranges.map(rangeKey),
    removedByDay: input.unsyncedOnly ? new Map(touched.filter((row) => row.removed > 0).map((row) => [row.date, row.removed])) : null,
  };
}

// Touched: the date of every sendable record whose content the upstream has not accepted (new, changed, moved), the
// date a changed one was sent for, and the date of every accepted appointment that is no longer sendable (canceled,
// no-show, deleted).

/** In one pass over both sides of the whole location (the removals are counted by the valve's own query). */
const touchedAnywhere = (locationId: string) => sql`
  select distinct dates.day::text as date, 0 as removed from (${differingAppointments(locationId)}) differing
  cross join lateral (values (differing.new_date), (differing.sent_date)) as dates(day)
  where dates.day is not null
  order by 1`;

/**
 * The same dates, looked up key by key from the location's unsynced keys when they are known (lib/sync/unsynced-keys.ts),
 * each with its accepted appointments that no sendable record names any more (a key without one has only that day).
 */
const touchedAmongUnsynced = (locationId: string) => sql`
  select dates.day::text as date, count(*) filter (where r.record_key is null)::int as removed
  from unsynced_keys u
  left join preview_records r on r.location_id = u.location_id and r.record_type = 'appointments' and r.record_key = u.record_key
    and r.status in ${sendableStatusList} and r.content_hash is not null
  left join synced_records s on s.location_id = u.location_id and s.record_type = 'appointments' and s.record_key = u.record_key
  cross join lateral (values (r.local_date), (s.appointment_date)) as dates(day)
  where u.location_id = ${locationId} and u.record_type = 'appointments' and s.content_hash is distinct from r.content_hash and dates.day is not null
  group by dates.day
  order by 1`;

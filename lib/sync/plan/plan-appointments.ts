import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import { sendableStatusList } from "@/lib/pipeline/record-status-sql";
import { chooseAppointmentRanges, type AppointmentPlanMode } from "./choose-appointment-ranges";
import { rangeKey } from "./date-ranges";
import { touchedAppointmentDays } from "@/lib/sync/synced-records/compare";
import { acceptedAppointmentDates } from "@/lib/sync/synced-records/lookups";

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
  const synced = await acceptedAppointmentDates(db, locationId);
  const [valid] = await queryRows<{ earliest: string | null }>(
    db,
    sql`
    select min(local_date)::text as earliest from preview_records
    where location_id = ${locationId} and record_type = 'appointments' and status in ${sendableStatusList}`,
  );
  const touched = await touchedAppointmentDays(db, locationId, input.unsyncedOnly);
  const earliest = [valid?.earliest, input.full ? synced.earliest : null].filter((date): date is string => Boolean(date)).sort()[0] ?? null;
  const plan = chooseAppointmentRanges({
    full: input.full,
    anySynced: synced.anyAccepted,
    anySyncedWithoutDate: synced.anyWithoutDate,
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

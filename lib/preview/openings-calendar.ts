import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";

/** One opening in a service's calendar: its local day and time (as the payload writes them: the location's wall clock). */
export interface CalendarSlot {
  seq: number;
  day: string;
  time: string;
  calendar: string;
  status: string;
}

export interface ServiceCalendar {
  serviceKey: string;
  serviceName: string;
  /** The local days of the window, in order (each column of the grid). */
  days: string[];
  /** The local start times any of its openings has, in order (each row of the grid). */
  times: string[];
  slots: CalendarSlot[];
}

/** More openings than this are not drawn (the table below lists them all). */
export const CALENDAR_MAX_OPENINGS = 5_000;

/**
 * A location's openings (the next 72 hours the preview read) as a calendar per service: days × start times, each slot
 * with the staff it is with and its status. Times are the payload's wall clock, the location's own time.
 */
export async function listOpeningsCalendar(
  db: DatabaseOrTransaction,
  locationId: string,
): Promise<{ services: ServiceCalendar[]; truncated: boolean }> {
  const rows = await queryRows<{
    seq: number;
    service_key: string | null;
    service_name: string | null;
    calendar_name: string | null;
    calendar_key: string | null;
    start_at: string | null;
    status: string;
  }>(
    db,
    sql`select o.seq, o.ref_service as service_key, s.payload->>'name' as service_name,
               c.payload->>'name' as calendar_name, o.ref_calendar as calendar_key, o.payload->>'start_at' as start_at, o.status
        from preview_records o
        left join lateral (select payload from preview_records s where s.location_id = o.location_id and s.record_type = 'services'
                             and s.record_key = o.ref_service order by s.seq limit 1) s on true
        left join lateral (select payload from preview_records c where c.location_id = o.location_id and c.record_type = 'calendars'
                             and c.record_key = o.ref_calendar order by c.seq limit 1) c on true
        where o.location_id = ${locationId} and o.record_type = 'openings'
        order by o.payload->>'start_at', o.seq
        limit ${CALENDAR_MAX_OPENINGS + 1}`,
  );
  const byService = new Map<string, ServiceCalendar>();
  const allDays = new Set<string>();
  for (const row of rows.slice(0, CALENDAR_MAX_OPENINGS)) {
    // "2026-11-27T09:15:00Z+01:00": the wall clock is the first 16 characters, whichever style wrote it.
    if (!row.start_at || row.start_at.length < 16) continue;
    const key = row.service_key ?? "";
    let service = byService.get(key);
    if (!service)
      byService.set(key, (service = { serviceKey: key, serviceName: row.service_name ?? (key || "No service"), days: [], times: [], slots: [] }));
    const day = row.start_at.slice(0, 10);
    allDays.add(day);
    service.slots.push({
      seq: row.seq,
      day,
      time: row.start_at.slice(11, 16),
      calendar: row.calendar_name ?? row.calendar_key ?? "",
      status: row.status,
    });
  }
  const days = [...allDays].sort();
  const services = [...byService.values()].sort((first, second) => first.serviceName.localeCompare(second.serviceName));
  for (const service of services) {
    service.days = days;
    service.times = [...new Set(service.slots.map((slot) => slot.time))].sort();
  }
  return { services, truncated: rows.length > CALENDAR_MAX_OPENINGS };
}

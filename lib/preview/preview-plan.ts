import { DateTime } from "luxon";
import { upstreamTypeOf } from "@/lib/mapping/map-row";
import type { SourceResource } from "@/lib/source/source-rows";

export type PreviewRecordType = (typeof upstreamTypeOf)[SourceResource];

/** The record types whose upstream sync replaces the whole set: a record not sent any more is removed there. */
export const fullReplacementTypes: readonly PreviewRecordType[] = ["calendars", "service_categories", "services", "openings"];

export const previewRecordTypes: readonly PreviewRecordType[] = Object.values(upstreamTypeOf);

/** Spec 4.4: later syncs send up to 6 months of future appointments; openings need only the next 72 hours. */
export const FUTURE_APPOINTMENT_MONTHS = 6;
export const OPENINGS_HORIZON_HOURS = 72;

export interface PlannedRead {
  resource: SourceResource;
  recordType: PreviewRecordType;
  windowStart: string | null;
  windowEnd: string | null;
}

const localTimestamp = (time: DateTime) => time.toFormat("yyyy-MM-dd HH:mm:ss");

/**
 * What a first sync reads, in the session's order (spec 4.4 item 6): the whole
 * appointment history up to 6 months ahead, openings for the next 72 hours, vehicles
 * only for automotive locations. Windows are local wall times of the location.
 */
export function planPreviewReads(location: { timeZone: string; automotive: boolean }, now: Date): PlannedRead[] {
  const localNow = DateTime.fromJSDate(now, { zone: location.timeZone });
  const appointmentsEnd = localNow.startOf("day").plus({ months: FUTURE_APPOINTMENT_MONTHS, days: 1 });
  const windows: Partial<Record<SourceResource, [string | null, string | null]>> = {
    appointments: [null, localTimestamp(appointmentsEnd)],
    availability: [localTimestamp(localNow), localTimestamp(localNow.plus({ hours: OPENINGS_HORIZON_HOURS }))],
  };
  return (Object.keys(upstreamTypeOf) as SourceResource[])
    .filter((resource) => resource !== "vehicles" || location.automotive)
    .map((resource) => ({
      resource,
      recordType: upstreamTypeOf[resource],
      windowStart: windows[resource]?.[0] ?? null,
      windowEnd: windows[resource]?.[1] ?? null,
    }));
}

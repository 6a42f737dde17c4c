import { upstreamTypeOf } from "@/lib/mapping/map-row";
import type { SourceResource } from "@/lib/source/source-rows";
import { appointmentsWindowEnd, openingsWindow } from "@/lib/sync/plan/local-dates";

export type PreviewRecordType = (typeof upstreamTypeOf)[SourceResource];

/** The record types whose upstream sync replaces the whole set: a record not sent any more is removed there. */
export const fullReplacementTypes: readonly PreviewRecordType[] = ["calendars", "service_categories", "services", "openings"];

export const previewRecordTypes: readonly PreviewRecordType[] = Object.values(upstreamTypeOf);

export interface PlannedRead {
  resource: SourceResource;
  recordType: PreviewRecordType;
  windowStart: string | null;
  windowEnd: string | null;
}

/**
 * What a first sync reads, in the session's order (spec 4.4 item 6): the whole
 * appointment history through the last local date a sync imports (today + 6 months), openings for the next 72 hours,
 * vehicles only for automotive locations. Windows are local wall times of the location (lib/sync/plan/local-dates.ts).
 */
export function planPreviewReads(location: { timeZone: string; automotive: boolean }, now: Date): PlannedRead[] {
  const openings = openingsWindow(now, location.timeZone);
  const windows: Partial<Record<SourceResource, [string | null, string | null]>> = {
    appointments: [null, appointmentsWindowEnd(now, location.timeZone)],
    availability: [openings.windowStart, openings.windowEnd],
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

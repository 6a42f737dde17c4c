import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { pluralize } from "@/lib/format/plural";
import { upstreamDateTimeMillis } from "@/lib/upstream/formats";
import type { PreviewRecordType } from "./preview-plan";

/** A record in human words: "Anna Schmidt", with "Cut · with Bob Baker" and the start for an appointment. */
export interface RecordLabel {
  title: string;
  detail: string | null;
  /** The instant an appointment or opening starts (ISO), shown in the location's time by the page. */
  startsAt: string | null;
}

/** The columns of a preview record a label is made from. */
export interface LabelledRecord {
  sourceId: string;
  payload: unknown;
  refContact: string | null;
  refService: string | null;
  refCalendar: string | null;
}

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

function ownName(payload: Record<string, unknown>): string | null {
  const person = [text(payload.first_name), text(payload.last_name)].filter(Boolean).join(" ");
  return text(payload.name) ?? (person || null) ?? text(payload.email);
}

/** The start of a payload's `start_at` as an ISO instant, whichever date-time style the payload was written in. */
export function startInstantOf(payload: Record<string, unknown>): string | null {
  const value = text(payload.start_at);
  if (!value) return null;
  const millis = [upstreamDateTimeMillis(value, "spec"), upstreamDateTimeMillis(value, "rfc3339")].find((candidate) => !Number.isNaN(candidate));
  return millis === undefined ? null : new Date(millis).toISOString();
}

/**
 * Labels for a page of records of one type: names of their own, or (appointments, openings, vehicles) the names of the
 * contact, service and calendar they name, looked up among the location's records in one query.
 */
export async function labelsOf(db: DatabaseOrTransaction, locationId: string, type: PreviewRecordType, records: readonly LabelledRecord[]) {
  const wanted = records.flatMap((record) => [
    ...(record.refContact ? [["contact_details", record.refContact]] : []),
    ...(record.refService ? [["services", record.refService]] : []),
    ...(record.refCalendar ? [["calendars", record.refCalendar]] : []),
  ]);
  const names = new Map<string, string>();
  if (wanted.length) {
    const rows = await queryRows<{ record_type: string; record_key: string; payload: Record<string, unknown> | null }>(
      db,
      sql`select distinct on (r.record_type, r.record_key) r.record_type, r.record_key, r.payload
          from preview_records r
          join unnest(${sql.param(wanted.map(([targetType]) => targetType))}::text[], ${sql.param(wanted.map(([, key]) => key))}::text[])
            as w(record_type, record_key) on w.record_type = r.record_type and w.record_key = r.record_key
          where r.location_id = ${locationId}
          order by r.record_type, r.record_key, r.seq`,
    );
    for (const row of rows) {
      const name = row.payload ? ownName(row.payload) : null;
      if (name) names.set(`${row.record_type}|${row.record_key}`, name);
    }
  }
  const nameOf = (targetType: string, key: string | null) => (key ? (names.get(`${targetType}|${key}`) ?? key) : null);
  return records.map((record): RecordLabel => {
    const payload = record.payload && typeof record.payload === "object" ? (record.payload as Record<string, unknown>) : {};
    const contact = nameOf("contact_details", record.refContact);
    const service = nameOf("services", record.refService);
    const calendar = nameOf("calendars", record.refCalendar);
    const startsAt = startInstantOf(payload);
    if (type === "appointments" || type === "openings") {
      const title = (type === "appointments" ? contact : service) ?? service ?? record.sourceId;
      const detail = [type === "appointments" ? service : null, calendar ? `with ${calendar}` : null].filter(Boolean).join(" · ");
      return { title, detail: detail || null, startsAt };
    }
    if (type === "vehicles") {
      const vehicle = [text(payload.make), text(payload.model), text(payload.license_plate)].filter(Boolean).join(" ");
      return { title: vehicle || record.sourceId, detail: contact ? `owned by ${contact}` : null, startsAt: null };
    }
    const calendars = Array.isArray(payload.calendar_external_ids) ? payload.calendar_external_ids.length : 0;
    return {
      title: ownName(payload) ?? record.sourceId,
      detail: type === "contact_details" ? text(payload.email) : type === "services" && calendars ? pluralize(calendars, "calendar") : null,
      startsAt: null,
    };
  });
}

import type { Database } from "@/db/client";
import { mapRow } from "@/lib/mapping/map-row";
import type { MappingContext } from "@/lib/mapping/mapping-types";
import type { SourceRows } from "@/lib/source/testing/array-source-reader";
import type { SourceResource } from "@/lib/source/source-rows";
import { isWithinOpeningsHorizon } from "@/lib/sync/plan/local-dates";
import { sandboxStored } from "./sync-test-setup";

type Stored = Record<string, Record<string, unknown>>;
export type Upstream = Record<"calendars" | "service_categories" | "services" | "contact_details" | "appointments" | "openings", Stored>;

/** The records one source resource maps to, keyed by external_id (the first row of a key wins), usable ones only. */
function mapped<R extends SourceResource>(
  context: MappingContext,
  rows: SourceRows,
  resource: R,
  keyOf: (record: Record<string, unknown>, row: { record: unknown; serviceExternalId?: string | null }) => string,
) {
  const records = new Map<string, Record<string, unknown>>();
  for (const row of rows[resource] ?? []) {
    const result = mapRow(resource, row as never, context) as {
      record: Record<string, unknown> | null;
      issues: { severity: string }[];
      excludedByRule: string | null;
      serviceExternalId?: string | null;
      startInstant?: number | null;
    };
    if (!result.record || result.excludedByRule || result.issues.some((issue) => issue.severity === "error")) continue;
    if (result.startInstant != null && !isWithinOpeningsHorizon(result.startInstant, context.now)) continue;
    const key = keyOf(result.record, result);
    if (!records.has(key)) records.set(key, result.record);
  }
  return records;
}

const byExternalId = (record: Record<string, unknown>) => record.external_id as string;

/**
 * What the upstream must hold after syncing `source`, given what it held before: written from the policies, not read
 * from our preview or synced tables. Records are mapped row by row by lib/mapping (tested on its own); which records go,
 * which references drop, who is unsubscribed and what an update merges are decided here.
 */
export function expectedUpstream(before: Upstream, source: SourceRows, context: MappingContext): Upstream {
  const calendars = mapped(context, source, "staff", byExternalId);
  const categories = mapped(context, source, "service_categories", byExternalId);
  const services = new Map<string, Record<string, unknown>>();
  for (const [key, record] of mapped(context, source, "services", byExternalId)) {
    const service = { ...record };
    if (typeof service.service_category_external_id === "string" && !categories.has(service.service_category_external_id))
      delete service.service_category_external_id;
    if (Array.isArray(service.calendar_external_ids))
      service.calendar_external_ids = (service.calendar_external_ids as string[]).filter((id) => calendars.has(id));
    services.set(key, service);
  }
  const contacts = mapped(context, source, "customers", byExternalId);
  const appointments = new Map<string, Record<string, unknown>>();
  for (const [key, record] of mapped(context, source, "appointments", byExternalId)) {
    if (!contacts.has(record.contact_detail_external_id as string)) continue;
    const appointment = { ...record };
    if (!services.has(appointment.service_external_id as string)) delete appointment.service_external_id;
    if (!calendars.has(appointment.calendar_external_id as string)) delete appointment.calendar_external_id;
    appointments.set(key, appointment);
  }
  const openings = new Map<string, Record<string, unknown>>();
  for (const [key, record] of mapped(
    context,
    source,
    "availability",
    (record, row) => `${row.serviceExternalId}|${record.calendar_external_id}|${record.start_at}`,
  )) {
    const [service] = key.split("|");
    if (services.has(service!) && calendars.has(record.calendar_external_id as string)) openings.set(key, record);
  }
  const contactDetails: Stored = {};
  for (const [key, held] of Object.entries(before.contact_details))
    contactDetails[key] = { ...held, email_subscribed: false, text_message_subscribed: false };
  for (const [key, record] of contacts) contactDetails[key] = { ...before.contact_details[key], ...record };
  return {
    calendars: Object.fromEntries(calendars),
    service_categories: Object.fromEntries(categories),
    services: Object.fromEntries(services),
    contact_details: contactDetails,
    appointments: Object.fromEntries(appointments),
    openings: Object.fromEntries(openings),
  };
}

export async function upstreamOf(db: Database, upstreamLocationId: string): Promise<Upstream> {
  const types = ["calendars", "service_categories", "services", "contact_details", "appointments", "openings"] as const;
  const entries = await Promise.all(
    types.map(async (type) => [type, Object.fromEntries(await sandboxStored(db, upstreamLocationId, type))] as const),
  );
  return Object.fromEntries(entries) as Upstream;
}

export const emptyUpstream = (): Upstream => ({
  calendars: {},
  service_categories: {},
  services: {},
  contact_details: {},
  appointments: {},
  openings: {},
});

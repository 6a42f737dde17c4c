import { z } from "zod";
import { defaultDateTimeStyle, LocalDate, MobilePhoneNumber, upstreamDateTimeOf, type DateTimeStyle } from "./formats";

// Spec 2.10 leaves required-ness open. Our choice: a record names itself (external_id or id), appointments
// carry start_at/end_at, openings start_at/calendar_external_id; every other field is optional.

/** Identifiers are strings (spec 2); an empty one names nothing. */
export const ExternalId = z.string().min(1, "must not be empty");

const identity = { external_id: ExternalId.optional(), id: ExternalId.optional() };

// Spec 2.1.3: a record carries the external ID or the service-issued ID, never both (and never neither).
function checkIdentity(record: { external_id?: string; id?: string }, context: z.RefinementCtx): void {
  if (record.external_id !== undefined && record.id !== undefined) {
    context.addIssue({ code: "custom", path: ["id"], message: "a record must not carry both external_id and id" });
  }
  if (record.external_id === undefined && record.id === undefined) {
    context.addIssue({ code: "custom", path: ["external_id"], message: "a record needs external_id (or the service-issued id)" });
  }
}

export const CalendarRecord = z.strictObject({ ...identity, name: z.string().optional() }).superRefine(checkIdentity);
export type CalendarRecord = z.infer<typeof CalendarRecord>;

export const ServiceCategoryRecord = z
  .strictObject({ ...identity, name: z.string().optional(), list_order: z.int().optional() })
  .superRefine(checkIdentity);
export type ServiceCategoryRecord = z.infer<typeof ServiceCategoryRecord>;

export const ServiceRecord = z
  .strictObject({
    ...identity,
    name: z.string().optional(),
    description: z.string().optional(),
    available: z.boolean().optional(),
    price_cents: z.int().optional(),
    service_category_external_id: ExternalId.optional(),
    calendar_external_ids: z.array(ExternalId).optional(),
    list_order: z.int().optional(),
  })
  .superRefine(checkIdentity);
export type ServiceRecord = z.infer<typeof ServiceRecord>;

// lib/mapping/record-checks.ts restates this schema and appointmentRecordOf's in plain code (the mapping's fast check):
// a rule changed here must change there too (its test compares the two).
export const ContactDetailRecord = z
  .strictObject({
    ...identity,
    email: z.email().optional(),
    email_subscribed: z.boolean().optional(),
    text_message_subscribed: z.boolean().optional(),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    address_line_1: z.string().optional(),
    address_line_2: z.string().optional(),
    city: z.string().optional(),
    postal_code: z.string().optional(),
    mobile_phone_number: MobilePhoneNumber.optional(),
    birthdate: LocalDate.optional(),
    gender: z
      .string()
      .regex(/^[a-z]+$/, "must be a lower-case word")
      .optional(),
    active_membership: z.boolean().optional(),
  })
  .superRefine(checkIdentity);
export type ContactDetailRecord = z.infer<typeof ContactDetailRecord>;

/** Spec 2.6 shows no vehicle fields: the source's fields pass through beside the two we rely on. */
export const VehicleRecord = z.looseObject({ ...identity, contact_detail_external_id: ExternalId.optional() }).superRefine(checkIdentity);
export type VehicleRecord = z.infer<typeof VehicleRecord>;

export function appointmentRecordOf(style: DateTimeStyle) {
  const dateTime = upstreamDateTimeOf(style);
  return z
    .strictObject({
      ...identity,
      start_at: dateTime,
      end_at: dateTime,
      contact_detail_external_id: ExternalId.optional(),
      service_external_id: ExternalId.optional(),
      calendar_external_id: ExternalId.optional(),
      price_cents: z.int().optional(),
    })
    .superRefine(checkIdentity)
    .superRefine((record, context) => {
      const start = Date.parse(record.start_at.replace("Z", ""));
      const end = Date.parse(record.end_at.replace("Z", ""));
      if (end < start) context.addIssue({ code: "custom", path: ["end_at"], message: "must not be before start_at" });
    });
}

export const AppointmentRecord = appointmentRecordOf(defaultDateTimeStyle);
export type AppointmentRecord = z.infer<typeof AppointmentRecord>;

/** Spec 2.8: an opening has no identifier; its service is named by the request, not the record. */
export function openingRecordOf(style: DateTimeStyle) {
  return z.strictObject({ start_at: upstreamDateTimeOf(style), calendar_external_id: ExternalId });
}

export const OpeningRecord = openingRecordOf(defaultDateTimeStyle);
export type OpeningRecord = z.infer<typeof OpeningRecord>;

/** The record schemas of one date-time style, by upstream record type. */
export function recordSchemasOf(style: DateTimeStyle) {
  return {
    calendars: CalendarRecord,
    service_categories: ServiceCategoryRecord,
    services: ServiceRecord,
    contact_details: ContactDetailRecord,
    vehicles: VehicleRecord,
    appointments: style === defaultDateTimeStyle ? AppointmentRecord : appointmentRecordOf(style),
    openings: style === defaultDateTimeStyle ? OpeningRecord : openingRecordOf(style),
  };
}

export const recordSchemas = recordSchemasOf(defaultDateTimeStyle);
export const UpstreamRecordType = z.enum(["calendars", "service_categories", "services", "contact_details", "vehicles", "appointments", "openings"]);
export type UpstreamRecordType = z.infer<typeof UpstreamRecordType>;

/** The key a record is known by within its type and location: its external_id, else `id:` + the service's id. */
export function recordKeyOf(record: { external_id?: string; id?: string }): string | undefined {
  if (record.external_id !== undefined) return record.external_id;
  return record.id === undefined ? undefined : `id:${record.id}`;
}

export interface DuplicateExternalId {
  /** Position of the repeated record. */
  index: number;
  /** Position where the same external_id first appeared. */
  firstIndex: number;
  externalId: string;
}

/** Spec 2.1.2: an external_id is unique per type and location; each repeat after the first is reported. */
export function findDuplicateExternalIds(records: Iterable<{ external_id?: string }>): DuplicateExternalId[] {
  const firstSeen = new Map<string, number>();
  const duplicates: DuplicateExternalId[] = [];
  let index = 0;
  for (const record of records) {
    const externalId = record.external_id;
    if (externalId !== undefined) {
      const firstIndex = firstSeen.get(externalId);
      if (firstIndex === undefined) firstSeen.set(externalId, index);
      else duplicates.push({ index, firstIndex, externalId });
    }
    index += 1;
  }
  return duplicates;
}

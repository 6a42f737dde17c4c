// TEMPORARY until lib/upstream/records.ts lands: then this file only re-exports from there.
import { z } from "zod";

export const LocalDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD");
const DateTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z[+-]\d{2}:\d{2}$/, "must be a date-time YYYY-MM-DDTHH:MM:SSZ±HH:MM");
const Id = z.string().min(1);
export const CalendarRecord = z.strictObject({ external_id: Id, name: z.string() });
export const ServiceCategoryRecord = z.strictObject({ external_id: Id, name: z.string(), list_order: z.number().int() });
export const ServiceRecord = z.strictObject({
  external_id: Id,
  name: z.string(),
  description: z.string().optional(),
  available: z.boolean(),
  price_cents: z.number().int(),
  service_category_external_id: Id,
  calendar_external_ids: z.array(Id),
  list_order: z.number().int(),
});
export const ContactDetailRecord = z.strictObject({
  external_id: Id,
  email: z.email().optional(),
  email_subscribed: z.boolean().optional(),
  text_message_subscribed: z.boolean().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  address_line_1: z.string().optional(),
  address_line_2: z.string().optional(),
  city: z.string().optional(),
  postal_code: z.string().optional(),
  mobile_phone_number: z.string().regex(/^\+\d+$/, "must be + followed by digits").optional(),
  birthdate: LocalDate.optional(),
  gender: z.string().regex(/^[a-z]+$/, "must be a lower-case word").optional(),
  active_membership: z.boolean().optional(),
});
export const VehicleRecord = z.looseObject({ external_id: Id, contact_detail_external_id: Id.optional() });
export const AppointmentRecord = z.strictObject({
  external_id: Id,
  start_at: DateTime,
  end_at: DateTime,
  contact_detail_external_id: Id,
  service_external_id: Id,
  calendar_external_id: Id,
  price_cents: z.number().int(),
});
export const OpeningRecord = z.strictObject({ start_at: DateTime, calendar_external_id: Id });

import { isLocalDate, mobilePhonePattern, upstreamDateTimeMillis, type DateTimeStyle } from "@/lib/upstream/formats";
import { ContactDetailRecord, type UpstreamRecordType } from "@/lib/upstream/records";

// The upstream schemas of the two record types mapped by the hundred thousand (appointments, contact details),
// restated as plain checks: zod's safeParse was half the time of mapping an appointment. A record a check passes,
// its schema passes too (record-checks.test.ts holds them to that); any other record is left to the schema, which
// also words the issues. A field added to either schema must be added here (the test names the missing ones).

type Fields = Record<string, unknown>;

export const appointmentKeys: ReadonlySet<string> = new Set([
  "external_id",
  "id",
  "start_at",
  "end_at",
  "contact_detail_external_id",
  "service_external_id",
  "calendar_external_id",
  "price_cents",
]);

export const contactDetailKeys: ReadonlySet<string> = new Set([
  "external_id",
  "id",
  "email",
  "email_subscribed",
  "text_message_subscribed",
  "first_name",
  "last_name",
  "address_line_1",
  "address_line_2",
  "city",
  "postal_code",
  "mobile_phone_number",
  "birthdate",
  "gender",
  "active_membership",
]);

// The pattern the schema's own e-mail check tests.
const emailPattern = ContactDetailRecord.shape.email.unwrap().def.pattern!;
const genderPattern = /^[a-z]+$/;

// A strict object: no key beyond the schema's (for...in also sees inherited ones, which only makes it stricter).
function hasOnlyKeys(record: Fields, keys: ReadonlySet<string>): boolean {
  for (const key in record) if (!keys.has(key)) return false;
  return true;
}

const isOptionalId = (value: unknown) => value === undefined || (typeof value === "string" && value.length > 0);
const isOptionalText = (value: unknown) => value === undefined || typeof value === "string";
const isOptionalBoolean = (value: unknown) => value === undefined || typeof value === "boolean";
const isOptionalMatch = (value: unknown, pattern: RegExp) => value === undefined || (typeof value === "string" && pattern.test(value));

// Spec 2.1.3: the external ID or the service-issued ID, exactly one.
function hasIdentity(record: Fields): boolean {
  return isOptionalId(record.external_id) && isOptionalId(record.id) && (record.external_id === undefined) !== (record.id === undefined);
}

// The instant of a date-time of the style, NaN for anything else.
const instantOf = (value: unknown, style: DateTimeStyle) => (typeof value === "string" ? upstreamDateTimeMillis(value, style) : Number.NaN);

function isAppointmentRecord(record: Fields, style: DateTimeStyle): boolean {
  const price = record.price_cents;
  const start = instantOf(record.start_at, style);
  const end = instantOf(record.end_at, style);
  return (
    hasOnlyKeys(record, appointmentKeys) &&
    hasIdentity(record) &&
    // False when either is NaN.
    end >= start &&
    isOptionalId(record.contact_detail_external_id) &&
    isOptionalId(record.service_external_id) &&
    isOptionalId(record.calendar_external_id) &&
    (price === undefined || Number.isSafeInteger(price))
  );
}

function isContactDetailRecord(record: Fields): boolean {
  return (
    hasOnlyKeys(record, contactDetailKeys) &&
    hasIdentity(record) &&
    isOptionalMatch(record.email, emailPattern) &&
    isOptionalBoolean(record.email_subscribed) &&
    isOptionalBoolean(record.text_message_subscribed) &&
    isOptionalText(record.first_name) &&
    isOptionalText(record.last_name) &&
    isOptionalText(record.address_line_1) &&
    isOptionalText(record.address_line_2) &&
    isOptionalText(record.city) &&
    isOptionalText(record.postal_code) &&
    isOptionalMatch(record.mobile_phone_number, mobilePhonePattern) &&
    (record.birthdate === undefined || (typeof record.birthdate === "string" && isLocalDate(record.birthdate))) &&
    isOptionalMatch(record.gender, genderPattern) &&
    isOptionalBoolean(record.active_membership)
  );
}

/** True when the record surely passes its upstream schema; false when only the schema can tell. */
export function passesPlainCheck(type: UpstreamRecordType, record: object, style: DateTimeStyle): boolean {
  if (type === "appointments") return isAppointmentRecord(record as Fields, style);
  if (type === "contact_details") return isContactDetailRecord(record as Fields);
  return false;
}

import type { AppointmentRow } from "@/lib/source/source-rows";
import type { AppointmentRecord } from "@/lib/upstream/records";
import { errorIssue, shownOriginal } from "./issues";
import { checkedRow } from "./mapped-row";
import type { MappedAppointmentRow, MappingContext } from "./mapping-types";
import { normaliseAppointmentStatus } from "./normalisers/appointment-status";
import { normaliseIdentifier, optionalReference, requireExternalId, requireReference } from "./normalisers/identifier";
import { normaliseLocalDateTime } from "./normalisers/local-date-time";
import { issuesOf } from "./normalisers/normalised";
import { normalisePrice } from "./normalisers/price";

// Spec 4.4.4: an import holds all valid appointments of its range "excluding canceled ones and no-shows".
const excludedStatuses = new Set(["canceled", "no-show"]);

/**
 * An appointment → an appointment record. Canceled and no-show rows are left out by rule before any other check; they
 * still name their local date, since a cancellation changes that date's import.
 */
export function mapAppointment(row: AppointmentRow, ctx: MappingContext): MappedAppointmentRow<AppointmentRecord> {
  const sourceId = normaliseIdentifier(row.id) ?? "";
  const status = normaliseAppointmentStatus(row.status);
  const start = normaliseLocalDateTime(row.starts_at, "start_at", ctx);
  const localDate = start.value?.localDate ?? null;
  if (status.value !== undefined && excludedStatuses.has(status.value)) {
    return { sourceId, record: null, issues: [], excludedByRule: status.value, localDate };
  }
  const externalId = requireExternalId(row.id);
  const end = normaliseLocalDateTime(row.ends_at, "end_at", ctx);
  const contact = requireReference(row.customer_id, "contact_detail_external_id");
  const service = optionalReference(row.service_id, "service_external_id");
  const calendar = optionalReference(row.staff_id, "calendar_external_id");
  const price = normalisePrice(row.price);
  const issues = issuesOf(externalId, start, end, contact, service, calendar, price, status);
  if (start.value !== undefined && end.value !== undefined && end.value.instant < start.value.instant) {
    issues.push(errorIssue("end_at", "end_before_start", "is before start_at", shownOriginal(row.ends_at)));
  }
  if (externalId.value === undefined || start.value === undefined || end.value === undefined) {
    return { sourceId, record: null, issues, excludedByRule: null, localDate };
  }
  // Keys in ascending order, so that the record is its own canonical form (lib/mapping/record-hash.ts hashes it without
  // copying it); a field without a value is left out, not sent as undefined.
  const record = {} as AppointmentRecord;
  if (calendar.value !== undefined) record.calendar_external_id = calendar.value;
  if (contact.value !== undefined) record.contact_detail_external_id = contact.value;
  record.end_at = end.value.dateTime;
  record.external_id = externalId.value;
  if (price.value !== undefined) record.price_cents = price.value;
  if (service.value !== undefined) record.service_external_id = service.value;
  record.start_at = start.value.dateTime;
  const checked = checkedRow("appointments", sourceId, record, issues, ctx);
  return { sourceId, record: checked.record, issues: checked.issues, excludedByRule: checked.excludedByRule, localDate };
}

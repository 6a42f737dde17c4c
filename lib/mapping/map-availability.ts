import type { AvailabilityRow } from "@/lib/source/source-rows";
import type { OpeningRecord } from "@/lib/upstream/records";
import { checkedRow } from "./mapped-row";
import type { MappedOpeningRow, MappingContext } from "./mapping-types";
import { requireReference } from "./normalisers/identifier";
import { normaliseLocalDateTime } from "./normalisers/local-date-time";

/** A free slot → an opening of its service. A slot has no id of its own: staff, service and start name it. */
export function mapAvailability(row: AvailabilityRow, ctx: MappingContext): MappedOpeningRow<OpeningRecord> {
  const sourceId = `${row.staff_id ?? ""}|${row.service_id ?? ""}|${row.starts_at ?? ""}`;
  const calendar = requireReference(row.staff_id, "calendar_external_id");
  const service = requireReference(row.service_id, "service_external_id");
  const start = normaliseLocalDateTime(row.starts_at, "start_at", ctx);
  const issues = [...calendar.issues, ...service.issues, ...start.issues];
  const serviceExternalId = service.value ?? null;
  const startInstant = start.value?.instant ?? null;
  if (calendar.value === undefined || start.value === undefined) {
    return { sourceId, record: null, issues, excludedByRule: null, serviceExternalId, startInstant };
  }
  const record = { start_at: start.value.dateTime, calendar_external_id: calendar.value };
  return { ...checkedRow("openings", sourceId, record, issues, ctx), serviceExternalId, startInstant };
}

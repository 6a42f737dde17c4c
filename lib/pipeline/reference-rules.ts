import type { PreviewRecordType } from "@/lib/preview/preview-plan";

/** A record's column naming another record, and what happens when that record is not there to send. */
export interface ReferenceRule {
  type: PreviewRecordType;
  column: "ref_contact" | "ref_service" | "ref_calendar" | "ref_category";
  field: "contact_detail_external_id" | "service_external_id" | "calendar_external_id" | "service_category_external_id";
  target: PreviewRecordType;
  targetLabel: string;
  /**
   * error: the record cannot stand without its target (an appointment or vehicle without its customer, an opening
   * nobody can serve). drop: the record is sent without the reference, so visit history and the menu survive a
   * staff or menu change (the spec marks no field as required).
   */
  onMissing: "error" | "drop";
}

/** Checked in dependency order: a record first fails for a missing customer, and only a usable one loses references. */
export const referenceRules: readonly ReferenceRule[] = [
  {
    type: "services",
    column: "ref_category",
    field: "service_category_external_id",
    target: "service_categories",
    targetLabel: "service category",
    onMissing: "drop",
  },
  {
    type: "appointments",
    column: "ref_contact",
    field: "contact_detail_external_id",
    target: "contact_details",
    targetLabel: "contact",
    onMissing: "error",
  },
  { type: "appointments", column: "ref_service", field: "service_external_id", target: "services", targetLabel: "service", onMissing: "drop" },
  { type: "appointments", column: "ref_calendar", field: "calendar_external_id", target: "calendars", targetLabel: "calendar", onMissing: "drop" },
  { type: "openings", column: "ref_service", field: "service_external_id", target: "services", targetLabel: "service", onMissing: "error" },
  { type: "openings", column: "ref_calendar", field: "calendar_external_id", target: "calendars", targetLabel: "calendar", onMissing: "error" },
  {
    type: "vehicles",
    column: "ref_contact",
    field: "contact_detail_external_id",
    target: "contact_details",
    targetLabel: "contact",
    onMissing: "error",
  },
];

/** A service names its calendars in an array: the ones not sent are taken out of it, each with a warning. */
export const serviceCalendarsField = "calendar_external_ids";

/** The field a duplicate is reported on, and how its reason names what it repeats. */
export const duplicateOf = (type: PreviewRecordType) =>
  type === "openings" ? { field: "start_at", repeats: "the opening" } : { field: "external_id", repeats: "the external_id" };

export const missingReason = (rule: Pick<ReferenceRule, "targetLabel" | "onMissing">, targetKey: string) =>
  `names ${rule.targetLabel} ${targetKey}${rule.onMissing === "drop" ? ", which is no longer sent: sent without it" : ", which is missing or excluded"}`;

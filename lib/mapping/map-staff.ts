import type { StaffRow } from "@/lib/source/source-rows";
import type { CalendarRecord } from "@/lib/upstream/records";
import { warningIssue } from "./issues";
import { checkedRow, rejectedRow, withoutUndefined } from "./mapped-row";
import type { MappedRow, MappingContext } from "./mapping-types";
import { normaliseIdentifier, requireExternalId } from "./normalisers/identifier";
import { normaliseText } from "./normalisers/text";

/** The calendar's name: the display name when set, otherwise first and last name. */
function calendarNameOf(row: StaffRow): string | undefined {
  return normaliseText(row.display_name) ?? normaliseText([row.first_name, row.last_name].map(normaliseText).filter(Boolean).join(" "));
}

/**
 * A staff member → a calendar. A missing name stays omitted with a warning, never "": the name is the calendar's label
 * in the upstream, and blanking it would not clear stale data but make the calendar unrecognisable.
 */
export function mapStaff(row: StaffRow, ctx: MappingContext): MappedRow<CalendarRecord> {
  const sourceId = normaliseIdentifier(row.id) ?? "";
  const externalId = requireExternalId(row.id);
  if (externalId.value === undefined) return rejectedRow(sourceId, externalId.issues);
  const name = calendarNameOf(row);
  const issues = name === undefined ? [warningIssue("name", "missing_name", "is missing (no display, first or last name)", null)] : [];
  return checkedRow("calendars", sourceId, withoutUndefined({ external_id: externalId.value, name }), issues, ctx);
}

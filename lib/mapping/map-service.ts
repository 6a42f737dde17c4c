import type { ServiceRow } from "@/lib/source/source-rows";
import type { ServiceRecord } from "@/lib/upstream/records";
import { warningIssue } from "./issues";
import { checkedRow, rejectedRow, withoutUndefined } from "./mapped-row";
import type { MappedRow, MappingContext } from "./mapping-types";
import { normaliseIdentifier, requireExternalId } from "./normalisers/identifier";
import { normaliseInteger } from "./normalisers/integer";
import { normalisePrice } from "./normalisers/price";
import { normaliseClearableText, normaliseText } from "./normalisers/text";

/**
 * The calendars of a service: distinct, sorted (a set, so the record's hash does not depend on the source's order),
 * empty ids left out. Unknown staff (null) → omitted; no staff ([]) → [].
 */
function calendarIdsOf(staffIds: readonly (string | null)[] | null): string[] | undefined {
  if (!Array.isArray(staffIds)) return undefined;
  const ids = new Set(staffIds.map(normaliseIdentifier).filter((id) => id !== undefined));
  return [...ids].sort();
}

/**
 * A service of the menu → a service. Bookable unless the source says otherwise. An emptied description is sent as ""
 * so the upstream clears it; a missing name stays omitted with a warning (a blank name is a data problem, not a clearing).
 */
export function mapService(row: ServiceRow, ctx: MappingContext): MappedRow<ServiceRecord> {
  const sourceId = normaliseIdentifier(row.id) ?? "";
  const externalId = requireExternalId(row.id);
  if (externalId.value === undefined) return rejectedRow(sourceId, externalId.issues);
  const name = normaliseText(row.name);
  const price = normalisePrice(row.price);
  const listOrder = normaliseInteger(row.position, "list_order");
  const issues = [...(name === undefined ? [warningIssue("name", "missing_name", "is missing", null)] : []), ...price.issues, ...listOrder.issues];
  const record = withoutUndefined({
    external_id: externalId.value,
    name,
    description: normaliseClearableText(row.description),
    available: typeof row.bookable === "boolean" ? row.bookable : true,
    price_cents: price.value,
    service_category_external_id: normaliseIdentifier(row.category_id),
    calendar_external_ids: calendarIdsOf(row.staff_ids),
    list_order: listOrder.value,
  });
  return checkedRow("services", sourceId, record, issues, ctx);
}

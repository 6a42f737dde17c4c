import type { ServiceCategoryRow } from "@/lib/source/source-rows";
import type { ServiceCategoryRecord } from "@/lib/upstream/records";
import { warningIssue } from "./issues";
import { checkedRow, rejectedRow, withoutUndefined } from "./mapped-row";
import type { MappedRow, MappingContext } from "./mapping-types";
import { normaliseIdentifier, requireExternalId } from "./normalisers/identifier";
import { normaliseInteger } from "./normalisers/integer";
import { normaliseText } from "./normalisers/text";

/**
 * A service category → a service category; its position is the list order. A missing name stays omitted with a
 * warning, never "": it is the category's label, and a blank one is a data problem, not a clearing.
 */
export function mapServiceCategory(row: ServiceCategoryRow, ctx: MappingContext): MappedRow<ServiceCategoryRecord> {
  const sourceId = normaliseIdentifier(row.id) ?? "";
  const externalId = requireExternalId(row.id);
  if (externalId.value === undefined) return rejectedRow(sourceId, externalId.issues);
  const name = normaliseText(row.name);
  const listOrder = normaliseInteger(row.position, "list_order");
  const issues = [...(name === undefined ? [warningIssue("name", "missing_name", "is missing", null)] : []), ...listOrder.issues];
  const record = withoutUndefined({ external_id: externalId.value, name, list_order: listOrder.value });
  return checkedRow("service_categories", sourceId, record, issues, ctx);
}

import type { VehicleRow } from "@/lib/source/source-rows";
import type { VehicleRecord } from "@/lib/upstream/records";
import { checkedRow, rejectedRow, withoutUndefined } from "./mapped-row";
import type { MappedRow, MappingContext } from "./mapping-types";
import { normaliseIdentifier, requireExternalId } from "./normalisers/identifier";
import { normaliseInteger } from "./normalisers/integer";
import { normaliseText } from "./normalisers/text";

/**
 * A vehicle → a vehicle record: spec 2.6 shows no fields, so the source's pass through beside the owner's contact.
 * Empty fields stay omitted, not "": the spec shows neither these fields nor their formats (a VIN, a plate), so an
 * empty value might be refused and take the vehicle's whole upload with it.
 */
export function mapVehicle(row: VehicleRow, ctx: MappingContext): MappedRow<VehicleRecord> {
  const sourceId = normaliseIdentifier(row.id) ?? "";
  const externalId = requireExternalId(row.id);
  if (externalId.value === undefined) return rejectedRow(sourceId, externalId.issues);
  const year = normaliseInteger(row.year, "year");
  const record = withoutUndefined({
    external_id: externalId.value,
    contact_detail_external_id: normaliseIdentifier(row.customer_id),
    make: normaliseText(row.make),
    model: normaliseText(row.model),
    year: year.value,
    license_plate: normaliseText(row.license_plate),
    vin: normaliseText(row.vin),
  });
  return checkedRow("vehicles", sourceId, record, year.issues, ctx);
}

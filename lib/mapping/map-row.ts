import type { SourceResource, SourceRowOf } from "@/lib/source/source-rows";
import type { UpstreamRecordType } from "@/lib/upstream/records";
import { mapAppointment } from "./map-appointment";
import { mapAvailability } from "./map-availability";
import { mapCustomer } from "./map-customer";
import { mapService } from "./map-service";
import { mapServiceCategory } from "./map-service-category";
import { mapStaff } from "./map-staff";
import { mapVehicle } from "./map-vehicle";
import type { MappedAppointmentRow, MappedOpeningRow, MappedRow, MappingContext, UpstreamRecordOf } from "./mapping-types";

/** Which upstream record type each source resource becomes. */
export const upstreamTypeOf = {
  staff: "calendars",
  service_categories: "service_categories",
  services: "services",
  customers: "contact_details",
  vehicles: "vehicles",
  appointments: "appointments",
  availability: "openings",
} as const satisfies Record<SourceResource, UpstreamRecordType>;

export type UpstreamTypeOf<R extends SourceResource> = (typeof upstreamTypeOf)[R];

/** What mapping one row of each resource returns. */
export interface MappedRowOf {
  staff: MappedRow<UpstreamRecordOf["calendars"]>;
  service_categories: MappedRow<UpstreamRecordOf["service_categories"]>;
  services: MappedRow<UpstreamRecordOf["services"]>;
  customers: MappedRow<UpstreamRecordOf["contact_details"]>;
  vehicles: MappedRow<UpstreamRecordOf["vehicles"]>;
  appointments: MappedAppointmentRow<UpstreamRecordOf["appointments"]>;
  availability: MappedOpeningRow<UpstreamRecordOf["openings"]>;
}

type Mappers = { [R in SourceResource]: (row: SourceRowOf[R], ctx: MappingContext) => MappedRowOf[R] };

const mappers: Mappers = {
  staff: mapStaff,
  service_categories: mapServiceCategory,
  services: mapService,
  customers: mapCustomer,
  vehicles: mapVehicle,
  appointments: mapAppointment,
  availability: mapAvailability,
};

/** Maps one source row of `resource` to its upstream record (type: upstreamTypeOf[resource]) and issues. */
export function mapRow<R extends SourceResource>(resource: R, row: SourceRowOf[R], ctx: MappingContext): MappedRowOf[R] {
  const mapper: Mappers[R] = mappers[resource];
  return mapper(row, ctx);
}

import { describe, expect, test } from "vitest";
import { sourceResources } from "@/lib/source/source-rows";
import { mapAppointment } from "./map-appointment";
import { mapRow, upstreamTypeOf } from "./map-row";
import { appointmentRow, availabilityRow, berlinContext, customerRow, staffRow } from "./testing/mapping-fixtures";

describe("mapRow", () => {
  test("names an upstream record type for every source resource", () => {
    expect(Object.keys(upstreamTypeOf).sort()).toEqual([...sourceResources].sort());
    expect(upstreamTypeOf).toEqual({
      staff: "calendars",
      service_categories: "service_categories",
      services: "services",
      customers: "contact_details",
      vehicles: "vehicles",
      appointments: "appointments",
      availability: "openings",
    });
  });

  test("hands each row to its resource's mapper", () => {
    expect(mapRow("staff", staffRow(), berlinContext).record).toEqual({ external_id: "staff-1", name: "Ada Lovelace" });
    expect(mapRow("customers", customerRow(), berlinContext).record?.mobile_phone_number).toBe("+491712345678");
    expect(mapRow("appointments", appointmentRow(), berlinContext)).toEqual(mapAppointment(appointmentRow(), berlinContext));
    expect(mapRow("availability", availabilityRow(), berlinContext).serviceExternalId).toBe("svc-1");
  });
});

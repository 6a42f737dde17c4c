import type { MappingContext } from "@/lib/mapping/mapping-types";
import type { AppointmentRow, CustomerRow } from "@/lib/source/source-rows";
import type { SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment, sourceCustomer } from "@/lib/source/testing/source-row-factories";

/** "Now" of the sample: openings on the 11th fall in the next 72 hours. */
export const sampleNow = new Date("2026-03-10T10:00:00Z");

/** How the sample's location maps its rows (Berlin, Germany, the spec's date-time form), at `now`. */
export const sampleMappingAt = (now: Date = sampleNow): MappingContext => ({ timeZone: "Europe/Berlin", country: "DE", dateTimeStyle: "spec", now });

const customer = (id: string, overrides: Partial<CustomerRow> = {}) => sourceCustomer(id, { last_name: `Alt ${id}`, ...overrides });

const appointment = (id: string, customerId: string, day: string, overrides: Partial<AppointmentRow> = {}) =>
  sourceAppointment(id, day, { customer_id: customerId, ...overrides });

/** A small salon: two staff, two services, four customers, five appointments around `sampleNow`, two openings. */
export function sampleSourceRows(): SourceRows {
  return {
    staff: [
      { id: "s1", first_name: "Anna", last_name: "Schmidt", display_name: "Anna S." },
      { id: "s2", first_name: "Bob", last_name: "Baker", display_name: null },
    ],
    service_categories: [{ id: "c1", name: "Hair", position: 1 }],
    services: [
      { id: "sv1", name: "Cut", description: "A haircut", bookable: true, price: "25.00", category_id: "c1", staff_ids: ["s1", "s2"], position: 1 },
      { id: "sv2", name: "Colour", description: "Colour", bookable: true, price: "40.00", category_id: "c1", staff_ids: ["s1"], position: 2 },
    ],
    customers: [customer("cu1"), customer("cu2"), customer("cu3"), customer("cu4")],
    appointments: [
      appointment("a1", "cu1", "2026-02-05", { status: "completed" }),
      appointment("a2", "cu2", "2026-02-10", { status: "completed" }),
      appointment("a3", "cu3", "2026-03-12"),
      appointment("a4", "cu4", "2026-04-01"),
      appointment("a5", "cu1", "2026-03-20"),
    ],
    availability: [
      { staff_id: "s1", service_id: "sv1", starts_at: "2026-03-11 10:00:00" },
      { staff_id: "s1", service_id: "sv2", starts_at: "2026-03-11 11:00:00" },
    ],
  };
}

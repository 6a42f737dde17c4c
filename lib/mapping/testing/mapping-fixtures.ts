import type { AppointmentRow, AvailabilityRow, CustomerRow, ServiceCategoryRow, ServiceRow, StaffRow, VehicleRow } from "@/lib/source/source-rows";
import type { MappingContext } from "../mapping-types";

/** A Berlin location on 2026-06-15. */
export const berlinContext: MappingContext = {
  timeZone: "Europe/Berlin",
  country: "DE",
  dateTimeStyle: "spec",
  now: new Date("2026-06-15T10:00:00Z"),
};

export function staffRow(overrides: Partial<StaffRow> = {}): StaffRow {
  return { id: "staff-1", first_name: "Ada", last_name: "Lovelace", display_name: null, ...overrides };
}

export function serviceCategoryRow(overrides: Partial<ServiceCategoryRow> = {}): ServiceCategoryRow {
  return { id: "cat-1", name: "Hair", position: 1, ...overrides };
}

export function serviceRow(overrides: Partial<ServiceRow> = {}): ServiceRow {
  return {
    id: "svc-1",
    name: "Haircut",
    description: "Wash, cut and dry",
    bookable: true,
    price: "25.00",
    category_id: "cat-1",
    staff_ids: ["staff-1"],
    position: 2,
    ...overrides,
  };
}

export function customerRow(overrides: Partial<CustomerRow> = {}): CustomerRow {
  return {
    id: "cust-1",
    first_name: "Grace",
    last_name: "Hopper",
    email: "grace@example.com",
    email_opt_in: true,
    sms_opt_in: false,
    address_line_1: "Hauptstraße 1",
    address_line_2: null,
    city: "Berlin",
    postal_code: "10115",
    phone: "0171 2345678",
    birthdate: "1985-02-28",
    gender: "F",
    member: true,
    updated_at: new Date("2026-06-01T08:00:00Z"),
    ...overrides,
  };
}

export function vehicleRow(overrides: Partial<VehicleRow> = {}): VehicleRow {
  return {
    id: "veh-1",
    customer_id: "cust-1",
    make: "Volkswagen",
    model: "Golf",
    year: 2019,
    license_plate: "B-AB 1234",
    vin: "WVWZZZ1KZAW000001",
    updated_at: new Date("2026-06-01T08:00:00Z"),
    ...overrides,
  };
}

export function appointmentRow(overrides: Partial<AppointmentRow> = {}): AppointmentRow {
  return {
    id: "apt-1",
    customer_id: "cust-1",
    service_id: "svc-1",
    staff_id: "staff-1",
    starts_at: "2026-06-20 09:30:00",
    ends_at: "2026-06-20 10:15:00",
    price: "25.00",
    status: "booked",
    updated_at: new Date("2026-06-01T08:00:00Z"),
    ...overrides,
  };
}

export function availabilityRow(overrides: Partial<AvailabilityRow> = {}): AvailabilityRow {
  return { staff_id: "staff-1", service_id: "svc-1", starts_at: "2026-06-16 14:00:00", ...overrides };
}

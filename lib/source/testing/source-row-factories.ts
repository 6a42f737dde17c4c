import type { AppointmentRow, CustomerRow } from "../source-rows";

/** A clean customer row (tests): a valid German contact with a mobile, fields overridable. */
export function sourceCustomer(id: string, overrides: Partial<CustomerRow> = {}): CustomerRow {
  return {
    id,
    first_name: "Anna",
    last_name: "Alt",
    email: `${id}@example.test`,
    email_opt_in: true,
    sms_opt_in: false,
    address_line_1: null,
    address_line_2: null,
    city: "Berlin",
    postal_code: "10115",
    phone: "0171 2345678",
    birthdate: "1985-04-12",
    gender: "F",
    member: false,
    updated_at: null,
    ...overrides,
  };
}

/** A booked 45-minute appointment of customer cu1 for service sv1 with staff s1 at 10:00 on `day` (tests), fields overridable. */
export function sourceAppointment(id: string, day: string, overrides: Partial<AppointmentRow> = {}): AppointmentRow {
  return {
    id,
    customer_id: "cu1",
    service_id: "sv1",
    staff_id: "s1",
    starts_at: `${day} 10:00:00`,
    ends_at: `${day} 10:45:00`,
    price: "25.00",
    status: "booked",
    updated_at: null,
    ...overrides,
  };
}

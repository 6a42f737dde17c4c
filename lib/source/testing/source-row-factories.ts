import type { CustomerRow } from "../source-rows";

/** A clean customer row (tests): a valid German contact, fields overridable. */
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
    phone: "030 1234567",
    birthdate: "1985-04-12",
    gender: "F",
    member: false,
    updated_at: null,
    ...overrides,
  };
}

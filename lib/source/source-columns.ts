import type { SourceResource, SourceRowOf } from "./source-rows";

/** Every column of a row type, each exactly once: the compiler refuses a missing or an extra one. */
type ColumnSet<Row> = { [Column in keyof Row]-?: true };

const columnSets: { [R in SourceResource]: ColumnSet<SourceRowOf[R]> } = {
  staff: { id: true, first_name: true, last_name: true, display_name: true },
  service_categories: { id: true, name: true, position: true },
  services: { id: true, name: true, description: true, bookable: true, price: true, category_id: true, staff_ids: true, position: true },
  customers: {
    id: true,
    first_name: true,
    last_name: true,
    email: true,
    email_opt_in: true,
    sms_opt_in: true,
    address_line_1: true,
    address_line_2: true,
    city: true,
    postal_code: true,
    phone: true,
    birthdate: true,
    gender: true,
    member: true,
    updated_at: true,
  },
  vehicles: { id: true, customer_id: true, make: true, model: true, year: true, license_plate: true, vin: true, updated_at: true },
  appointments: {
    id: true,
    customer_id: true,
    service_id: true,
    staff_id: true,
    starts_at: true,
    ends_at: true,
    price: true,
    status: true,
    updated_at: true,
  },
  availability: { staff_id: true, service_id: true, starts_at: true },
};

/** The result columns each resource's query must return (lib/source/source-rows.ts, at run time). */
export function sourceColumns(resource: SourceResource): string[] {
  return Object.keys(columnSets[resource]);
}

/** What a query's columns lack and have too many compared with the contract; both empty when they match. */
export function compareColumns(resource: SourceResource, actual: readonly string[]): { missing: string[]; extra: string[] } {
  const expected = sourceColumns(resource);
  return { missing: expected.filter((column) => !actual.includes(column)), extra: actual.filter((column) => !expected.includes(column)) };
}

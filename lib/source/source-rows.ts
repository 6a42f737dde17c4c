// The column contract of the source: what each resource's query returns, one row per object.
// Engineers adapt the SQL files in lib/source/sql/ to their own schema; the columns stay these.
// Every column may come back null or malformed: the mapping (lib/mapping) judges the values, not the reader.

export const sourceResources = ["staff", "service_categories", "services", "customers", "vehicles", "appointments", "availability"] as const;
export type SourceResource = (typeof sourceResources)[number];

/** A staff member who provides services (→ calendar). */
export interface StaffRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  /** Shown name when set; otherwise first + last name. */
  display_name: string | null;
}

export interface ServiceCategoryRow {
  id: string;
  name: string | null;
  position: number | null;
}

export interface ServiceRow {
  id: string;
  name: string | null;
  description: string | null;
  bookable: boolean | null;
  /** Decimal currency as text, e.g. "25.00" or "19.9" (numeric columns arrive as text). */
  price: string | null;
  category_id: string | null;
  /** Staff who provide the service. */
  staff_ids: string[] | null;
  position: number | null;
}

export interface CustomerRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  email_opt_in: boolean | null;
  sms_opt_in: boolean | null;
  address_line_1: string | null;
  address_line_2: string | null;
  city: string | null;
  postal_code: string | null;
  /** As typed at the front desk: local formats, spaces, brackets. */
  phone: string | null;
  /** A date, or text that should be one (YYYY-MM-DD). */
  birthdate: string | null;
  gender: string | null;
  member: boolean | null;
  updated_at: Date | null;
}

export interface VehicleRow {
  id: string;
  customer_id: string | null;
  make: string | null;
  model: string | null;
  year: number | null;
  license_plate: string | null;
  vin: string | null;
  updated_at: Date | null;
}

/** Raw status words of the management system; the mapping normalises case and spelling. */
export type AppointmentStatus = "booked" | "completed" | "canceled" | "no-show";

export interface AppointmentRow {
  id: string;
  customer_id: string | null;
  service_id: string | null;
  staff_id: string | null;
  /** Local wall-clock time of the location, "YYYY-MM-DD HH:MM:SS" (timestamp without time zone, read as text). */
  starts_at: string | null;
  ends_at: string | null;
  price: string | null;
  status: string | null;
  updated_at: Date | null;
}

/** A free slot of one staff member for one service (→ opening of that service). */
export interface AvailabilityRow {
  staff_id: string | null;
  service_id: string | null;
  /** Local wall-clock time, as appointments. */
  starts_at: string | null;
}

export interface SourceRowOf {
  staff: StaffRow;
  service_categories: ServiceCategoryRow;
  services: ServiceRow;
  customers: CustomerRow;
  vehicles: VehicleRow;
  appointments: AppointmentRow;
  availability: AvailabilityRow;
}

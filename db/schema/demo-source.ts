import { sql, type SQL } from "drizzle-orm";
import { boolean, index, integer, numeric, pgSchema, primaryKey, serial, text, timestamp, type AnyPgColumn } from "drizzle-orm/pg-core";
import { trimmedIdSql } from "../trimmed-id";

// A plausible vendor management system, the default source of the embedded app (lib/source/demo).
// Like many such systems it is multi-tenant by source_key, enforces no foreign keys and keeps
// free text where a type would be stricter: the SQL files in lib/source/sql read it as it is.
export const demoSource = pgSchema("demo_source");

const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
/** Local wall-clock time of the location: no zone, so even times a DST change skips can be stored. */
const wallTime = (name: string) => timestamp(name, { mode: "string" });
// Re-reading rows by id (an incremental preview, lib/source/sql-source-reader.ts) matches the id as the SQL files give it
// (text) or trimmed as the mapping trims it (trimmedIdSql): indexed, so it looks the ids up instead of scanning the location.
const idText = (column: AnyPgColumn): SQL => sql`(${column}::text)`;
const trimmedId = (column: AnyPgColumn): SQL => sql.raw(trimmedIdSql(`"${column.name}"::text`));

export const demoSourceLocations = demoSource.table("locations", {
  sourceKey: text("source_key").primaryKey(),
  name: text("name").notNull(),
  timeZone: text("time_zone").notNull(),
  country: text("country").notNull(),
  /** "salon" | "garage" */
  kind: text("kind").notNull(),
});

export const demoSourceStaff = demoSource.table(
  "staff",
  {
    sourceKey: text("source_key").notNull(),
    id: integer("id").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    displayName: text("display_name"),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.sourceKey, table.id] })],
);

export const demoSourceServiceCategories = demoSource.table(
  "service_categories",
  {
    sourceKey: text("source_key").notNull(),
    id: integer("id").notNull(),
    name: text("name"),
    position: integer("position"),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.sourceKey, table.id] })],
);

export const demoSourceServices = demoSource.table(
  "services",
  {
    sourceKey: text("source_key").notNull(),
    id: integer("id").notNull(),
    /** May point at a soft-deleted category. */
    categoryId: integer("category_id"),
    name: text("name"),
    description: text("description"),
    bookable: boolean("bookable"),
    price: numeric("price", { precision: 10, scale: 2 }),
    durationMinutes: integer("duration_minutes").notNull(),
    position: integer("position"),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.sourceKey, table.id] })],
);

export const demoSourceServiceStaff = demoSource.table(
  "service_staff",
  {
    sourceKey: text("source_key").notNull(),
    serviceId: integer("service_id").notNull(),
    staffId: integer("staff_id").notNull(),
  },
  (table) => [primaryKey({ columns: [table.sourceKey, table.serviceId, table.staffId] })],
);

export const demoSourceCustomers = demoSource.table(
  "customers",
  {
    /** Surrogate key: customer_no is what the front desk sees, and it is not unique (duplicates happen). */
    id: serial("id").primaryKey(),
    sourceKey: text("source_key").notNull(),
    customerNo: text("customer_no").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    email: text("email"),
    emailOptIn: boolean("email_opt_in"),
    smsOptIn: boolean("sms_opt_in"),
    street: text("street"),
    addressExtra: text("address_extra"),
    city: text("city"),
    postalCode: text("postal_code"),
    phone: text("phone"),
    /** Typed at the front desk, so not always a date. */
    birthdate: text("birthdate"),
    gender: text("gender"),
    member: boolean("member"),
    updatedAt: updatedAt(),
  },
  (table) => [
    index("demo_source_customers_read").on(table.sourceKey, table.id),
    index("demo_source_customers_number").on(table.sourceKey, table.customerNo),
    // What changed since (an incremental read) and the latest change (the fingerprint) without a scan.
    index("demo_source_customers_changed").on(table.sourceKey, table.updatedAt),
    index("demo_source_customers_number_trimmed").on(table.sourceKey, trimmedId(table.customerNo)),
  ],
);

export const demoSourceVehicles = demoSource.table(
  "vehicles",
  {
    sourceKey: text("source_key").notNull(),
    id: integer("id").notNull(),
    customerNo: text("customer_no"),
    make: text("make"),
    model: text("model"),
    year: integer("year"),
    licensePlate: text("license_plate"),
    vin: text("vin"),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.sourceKey, table.id] }),
    index("demo_source_vehicles_changed").on(table.sourceKey, table.updatedAt),
    index("demo_source_vehicles_id_text").on(table.sourceKey, idText(table.id)),
    index("demo_source_vehicles_id_trimmed").on(table.sourceKey, trimmedId(table.id)),
  ],
);

export const demoSourceAppointments = demoSource.table(
  "appointments",
  {
    sourceKey: text("source_key").notNull(),
    id: integer("id").notNull(),
    customerNo: text("customer_no"),
    serviceId: integer("service_id"),
    staffId: integer("staff_id"),
    startsAt: wallTime("starts_at"),
    endsAt: wallTime("ends_at"),
    price: numeric("price", { precision: 10, scale: 2 }),
    status: text("status"),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.sourceKey, table.id] }),
    index("demo_source_appointments_window").on(table.sourceKey, table.startsAt, table.id),
    index("demo_source_appointments_changed").on(table.sourceKey, table.updatedAt),
    index("demo_source_appointments_id_text").on(table.sourceKey, idText(table.id)),
    index("demo_source_appointments_id_trimmed").on(table.sourceKey, trimmedId(table.id)),
  ],
);

export const demoSourceAvailabilitySlots = demoSource.table(
  "availability_slots",
  {
    sourceKey: text("source_key").notNull(),
    id: integer("id").notNull(),
    staffId: integer("staff_id"),
    serviceId: integer("service_id"),
    startsAt: wallTime("starts_at"),
  },
  (table) => [
    primaryKey({ columns: [table.sourceKey, table.id] }),
    index("demo_source_availability_window").on(table.sourceKey, table.startsAt, table.id),
  ],
);

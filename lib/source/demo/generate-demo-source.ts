import { inArray } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import {
  demoSourceAppointments,
  demoSourceAvailabilitySlots,
  demoSourceCustomers,
  demoSourceLocations,
  demoSourceServiceCategories,
  demoSourceServices,
  demoSourceServiceStaff,
  demoSourceStaff,
  demoSourceVehicles,
} from "@/db/schema";
import { customerAppointments, showcaseAppointments, type AppointmentContext } from "./appointment-rows";
import { availabilitySlots } from "./availability-rows";
import { createBatchWriter } from "./batch-writer";
import { customerNumber, customerRows, vehicleRows, type CustomerContext } from "./customer-rows";
import { demoProfiles } from "./demo-profiles";
import { generateCatalogue } from "./generate-catalogue";
import { createRandom, deriveSeed } from "./random";
import { dayMs, wallDay } from "./wall-time";

export interface DemoSourceOptions {
  locations: number;
  /** Customers per location (distinct customer numbers; a few are entered twice on top). */
  contacts: number;
  /** Years of past appointments; about six months of future ones come on top. */
  years: number;
  seed: number;
  /** Source keys to create, one per location; default `demo-<seed>-<1…locations>`. */
  sourceKeys?: readonly string[];
  /** "YYYY-MM-DD" the data is generated around; default today (UTC). Same seed and day → same rows. */
  today?: string;
  /**
   * About how many appointments per location (the showcase ones come on top): the visits per customer become
   * appointments / contacts over the whole range (`years` back plus the half year ahead). Default: about five
   * visits per customer and year, i.e. contacts × 5 × (years + 0.5).
   */
  appointments?: number;
  /**
   * Services per location: the profile's menu (12 in a salon, 9 in a garage; never fewer) plus generated ones, and
   * every service then has free slots on each open day of the next four, so each has openings in the next 72 hours.
   * Default: the profile's menu, with free slots for most of its bookable services.
   */
  services?: number;
}

const futureDays = 182;

const demoSourceTables = [
  demoSourceLocations,
  demoSourceStaff,
  demoSourceServiceCategories,
  demoSourceServices,
  demoSourceServiceStaff,
  demoSourceCustomers,
  demoSourceVehicles,
  demoSourceAppointments,
  demoSourceAvailabilitySlots,
] as const;

function assertCount(name: string, value: number, minimum: number) {
  if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be a whole number of at least ${minimum}, got ${value}`);
}

export function demoSourceKeys(options: Pick<DemoSourceOptions, "locations" | "seed" | "sourceKeys">): string[] {
  if (!options.sourceKeys) return Array.from({ length: options.locations }, (_, index) => `demo-${options.seed}-${index + 1}`);
  if (options.sourceKeys.length !== options.locations)
    throw new Error(`${options.sourceKeys.length} source keys given for ${options.locations} locations`);
  return [...options.sourceKeys];
}

/**
 * Writes a deterministic, realistically messy management-system data set into the demo_source
 * schema, replacing whatever those source keys held, in one transaction and in batches.
 * Returns the source keys it created.
 */
export async function generateDemoSource(db: DatabaseOrTransaction, options: DemoSourceOptions): Promise<string[]> {
  assertCount("locations", options.locations, 1);
  assertCount("contacts", options.contacts, 0);
  assertCount("years", options.years, 0);
  assertCount("seed", options.seed, 0);
  if (options.appointments !== undefined) assertCount("appointments", options.appointments, 0);
  if (options.services !== undefined) assertCount("services", options.services, 0);
  const sourceKeys = demoSourceKeys(options);
  const today = wallDay(options.today ?? new Date().toISOString().slice(0, 10));
  await db.transaction(async (tx) => {
    for (const table of demoSourceTables) await tx.delete(table).where(inArray(table.sourceKey, sourceKeys));
    const { seed, contacts, years, appointments, services } = options;
    for (const [index, sourceKey] of sourceKeys.entries())
      await generateLocation(tx, { sourceKey, index, seed, contacts, years, appointments, services, today });
  });
  return sourceKeys;
}

interface LocationPlan {
  sourceKey: string;
  /** Position in the data set: picks the profile. */
  index: number;
  seed: number;
  contacts: number;
  years: number;
  appointments?: number;
  services?: number;
  /** Wall time of today's midnight. */
  today: number;
}

async function generateLocation(db: DatabaseOrTransaction, options: LocationPlan) {
  const { sourceKey, index, seed, today, contacts, years, appointments: appointmentTotal, services: serviceTotal } = options;
  const profile = demoProfiles[index % demoProfiles.length]!;
  const randomFor = (purpose: string) => createRandom(deriveSeed(seed, index, purpose));
  await db
    .insert(demoSourceLocations)
    .values({ sourceKey, name: `Demo ${profile.label} ${index + 1}`, timeZone: profile.timeZone, country: profile.country, kind: profile.kind });
  // New options draw from streams of their own ("extra-services", "visit-rounding", "openings"): without them, the rows stay as they were.
  const extraServices = { count: Math.max(0, (serviceTotal ?? 0) - profile.services.length), random: randomFor("extra-services") };
  const catalogue = await generateCatalogue(db, sourceKey, profile, randomFor("catalogue"), today, extraServices);

  const customers = createBatchWriter(db, demoSourceCustomers);
  const vehicles = createBatchWriter(db, demoSourceVehicles);
  const appointments = createBatchWriter(db, demoSourceAppointments);
  let vehicleId = 0;
  let appointmentId = 0;
  const customerContext: CustomerContext = { sourceKey, profile, random: randomFor("customers"), today, years };
  const visits = appointmentTotal === undefined ? undefined : contacts ? appointmentTotal / contacts : 0;
  const appointmentContext: AppointmentContext = {
    sourceKey,
    profile,
    catalogue,
    random: randomFor("appointments"),
    today,
    firstDay: today - years * 365 * dayMs,
    lastDay: today + futureDays * dayMs,
    visits,
    visitRounding: randomFor("visit-rounding"),
  };
  for (let number = 1; number <= contacts; number++) {
    const rows = customerRows(customerContext, number);
    for (const row of rows) await customers.push(row);
    if (profile.automotive)
      for (const vehicle of vehicleRows(customerContext, rows[0]!.customerNo)) await vehicles.push({ ...vehicle, id: ++vehicleId });
    for (const visit of customerAppointments(appointmentContext, rows[0]!.customerNo, years))
      await appointments.push({ ...visit, id: ++appointmentId });
  }
  const showcaseCustomers = Array.from({ length: Math.min(contacts, 50) }, (_, offset) => customerNumber(profile, offset + 1));
  for (const visit of showcaseAppointments(appointmentContext, showcaseCustomers)) await appointments.push({ ...visit, id: ++appointmentId });
  for (const writer of [customers, vehicles, appointments]) await writer.flush();

  const slots = createBatchWriter(db, demoSourceAvailabilitySlots);
  let slotId = 0;
  for (const slot of availabilitySlots(
    sourceKey,
    profile,
    catalogue,
    randomFor("availability"),
    today,
    serviceTotal === undefined ? undefined : randomFor("openings"),
  ))
    await slots.push({ ...slot, id: ++slotId });
  await slots.flush();
}

// `npm run bench:mapping`: maps demo appointments and customers (the demo generator's rows, without a database) with
// mapRow, and hashes the records as the preview does. Prints the CPU time per row of each, the time JSON.stringify takes
// for the same rows' records (a yardstick of the machine: mapping is judged by its ratio to it, with a target per
// resource, exit 1 on a miss), and a digest of every output (records, issues, local dates, hashes, in both date-time
// styles), so that a change to the mapping can show its output is the same.
import { createHash } from "node:crypto";
import { mapRow } from "@/lib/mapping/map-row";
import type { MappingContext } from "@/lib/mapping/mapping-types";
import { canonicalJson, recordHash } from "@/lib/mapping/record-hash";
import type { AppointmentRow, CustomerRow } from "@/lib/source/source-rows";
import { customerAppointments, showcaseAppointments } from "@/lib/source/demo/appointment-rows";
import { customerRows } from "@/lib/source/demo/customer-rows";
import { demoProfiles, type DemoProfile } from "@/lib/source/demo/demo-profiles";
import type { DemoCatalogue } from "@/lib/source/demo/generate-catalogue";
import { createRandom, deriveSeed } from "@/lib/source/demo/random";
import { dayMs, wallDay } from "@/lib/source/demo/wall-time";
import type { DateTimeStyle } from "@/lib/upstream/formats";

const customersPerLocation = 25_000;
const appointmentsPerLocation = 100_000;
const years = 1;
const today = wallDay("2025-06-15");
const rounds = 7;
// Mapping a row may take at most this many times as long as serialising its record.
const ratioTargets = { appointments: 5, customers: 12 } as const;

interface BenchLocation {
  ctx: Omit<MappingContext, "dateTimeStyle">;
  customers: CustomerRow[];
  appointments: AppointmentRow[];
}

// A catalogue in memory, as generateCatalogue would write it: the appointments only need services and staff ids.
function catalogueOf(profile: DemoProfile): DemoCatalogue {
  const staffIds = Array.from({ length: profile.staffCount }, (_, index) => index + 1);
  const services = profile.services.map((service, index) => ({
    id: index + 1,
    price: service.price,
    durationMinutes: service.durationMinutes,
    bookable: service.bookable,
    staffIds: staffIds.slice(0, service.staffCount),
  }));
  return { staffIds, services };
}

// The demo rows as lib/source/sql/*.sql reads them.
function benchLocation(profile: DemoProfile, index: number): BenchLocation {
  const sourceKey = `bench-${index}`;
  const randomFor = (purpose: string) => createRandom(deriveSeed(7, index, purpose));
  const customerContext = { sourceKey, profile, random: randomFor("customers"), today, years };
  const [firstDay, lastDay] = [today - years * 365 * dayMs, today + 182 * dayMs];
  const appointmentContext = { sourceKey, profile, catalogue: catalogueOf(profile), random: randomFor("appointments"), today, firstDay, lastDay };
  const customers: CustomerRow[] = [];
  const visits = [];
  for (let number = 1; number <= customersPerLocation; number++) {
    const rows = customerRows(customerContext, number);
    for (const row of rows) {
      customers.push({
        id: row.customerNo,
        first_name: row.firstName ?? null,
        last_name: row.lastName ?? null,
        email: row.email ?? null,
        email_opt_in: row.emailOptIn ?? null,
        sms_opt_in: row.smsOptIn ?? null,
        address_line_1: row.street ?? null,
        address_line_2: row.addressExtra ?? null,
        city: row.city ?? null,
        postal_code: row.postalCode ?? null,
        phone: row.phone ?? null,
        birthdate: row.birthdate ?? null,
        gender: row.gender ?? null,
        member: row.member ?? null,
        updated_at: row.updatedAt ?? null,
      });
    }
    visits.push(...customerAppointments(appointmentContext, rows[0]!.customerNo, years));
  }
  // The showcase (DST gaps and overlaps, midnight) is kept whatever the cap.
  const showcase = showcaseAppointments(
    appointmentContext,
    customers.slice(0, 50).map((customer) => customer.id),
  );
  const appointments = [...visits.slice(0, appointmentsPerLocation - showcase.length), ...showcase].map((visit, position) => ({
    id: String(position + 1),
    customer_id: visit.customerNo ?? null,
    service_id: visit.serviceId === null || visit.serviceId === undefined ? null : String(visit.serviceId),
    staff_id: visit.staffId === null || visit.staffId === undefined ? null : String(visit.staffId),
    starts_at: visit.startsAt ?? null,
    ends_at: visit.endsAt ?? null,
    price: visit.price ?? null,
    status: visit.status ?? null,
    updated_at: visit.updatedAt ?? null,
  }));
  return { ctx: { timeZone: profile.timeZone, country: profile.country, now: new Date(today) }, customers, appointments };
}

// CPU time of the process (garbage collection threads included), not wall time: other work on the machine does not count.
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** µs per row: the first round (cold JIT and zone offset caches, as a worker's first preview) and the median of the rest. */
function microsPerRow(rows: number, run: () => void): { first: number; warm: number } {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = cpuMicros();
    run();
    samples.push((cpuMicros() - started) / rows);
  }
  return { first: samples[0]!, warm: samples.slice(1).sort((a, b) => a - b)[Math.floor((rounds - 1) / 2)]! };
}

function printTiming(label: string, count: number, unit: string, { first, warm }: { first: number; warm: number }): void {
  console.log(
    `${label.padEnd(13)} ${count.toLocaleString("en").padStart(8)} ${unit.padEnd(8)} ${warm.toFixed(2).padStart(7)} µs each (first round ${first.toFixed(2)})`,
  );
}

/** Prints mapping against serialising for one resource; false when the ratio misses its target. */
function printRatio(label: string, map: { warm: number }, serialise: { warm: number }, target: number): boolean {
  const ratio = map.warm / serialise.warm;
  const met = ratio <= target;
  console.log(
    `${label.padEnd(13)} map ${map.warm.toFixed(2)} µs / serialise ${serialise.warm.toFixed(2)} µs = ${ratio.toFixed(1).padStart(4)}× (target ≤ ${target}×) ${met ? "met" : "MISSED"}`,
  );
  return met;
}

function main(): void {
  const locations = demoProfiles.slice(1).map((profile, index) => benchLocation(profile, index));
  const appointmentCount = locations.reduce((sum, location) => sum + location.appointments.length, 0);
  const customerCount = locations.reduce((sum, location) => sum + location.customers.length, 0);
  const style: DateTimeStyle = "spec";
  // One context per location, as the preview maps a run's rows with one.
  const runs = locations.map(({ ctx, appointments, customers }) => ({ ctx: { ...ctx, dateTimeStyle: style }, appointments, customers }));

  const appointments = microsPerRow(appointmentCount, () => {
    for (const { ctx, appointments } of runs) for (const row of appointments) mapRow("appointments", row, ctx);
  });
  const customers = microsPerRow(customerCount, () => {
    for (const { ctx, customers } of runs) for (const row of customers) mapRow("customers", row, ctx);
  });
  // The records of the same rows (null where a row is excluded, as JSON.stringify(mapped.record) sees it), timed the
  // same way, per row as the mapping is.
  const mappedAppointments = runs.flatMap(({ ctx, appointments }) => appointments.map((row) => mapRow("appointments", row, ctx).record));
  const mappedCustomers = runs.flatMap(({ ctx, customers }) => customers.map((row) => mapRow("customers", row, ctx).record));
  const appointmentJson = microsPerRow(appointmentCount, () => {
    for (const record of mappedAppointments) JSON.stringify(record);
  });
  const customerJson = microsPerRow(customerCount, () => {
    for (const record of mappedCustomers) JSON.stringify(record);
  });
  const hashedCustomers = mappedCustomers.filter((record) => record !== null);
  const hashes = microsPerRow(hashedCustomers.length, () => {
    for (const record of hashedCustomers) recordHash(record);
  });

  const digest = createHash("sha256");
  for (const dateTimeStyle of ["spec", "rfc3339"] as const) {
    for (const { ctx, appointments, customers } of locations) {
      for (const row of appointments) {
        const mapped = mapRow("appointments", row, { ...ctx, dateTimeStyle });
        digest.update(canonicalJson(mapped)).update(mapped.record === null ? "-" : recordHash(mapped.record));
      }
      for (const row of customers) {
        const mapped = mapRow("customers", row, { ...ctx, dateTimeStyle });
        digest.update(canonicalJson(mapped)).update(mapped.record === null ? "-" : recordHash(mapped.record));
      }
    }
  }

  console.log(
    "map: mapRow alone (recordHash is timed on its own); serialise: JSON.stringify of each row's record; CPU time, median of the warm rounds",
  );
  printTiming("appointments", appointmentCount, "rows", appointments);
  printTiming("  serialise", appointmentCount, "rows", appointmentJson);
  printTiming("customers", customerCount, "rows", customers);
  printTiming("  serialise", customerCount, "rows", customerJson);
  printTiming("recordHash", hashedCustomers.length, "records", hashes);
  const met = [
    printRatio("appointments", appointments, appointmentJson, ratioTargets.appointments),
    printRatio("customers", customers, customerJson, ratioTargets.customers),
  ];
  console.log(`output digest ${digest.digest("hex")}`);
  if (met.includes(false)) process.exitCode = 1;
}

main();

import type { demoSourceCustomers, demoSourceVehicles } from "@/db/schema";
import { vehicleModels, type DemoProfile } from "./demo-profiles";
import { messyBirthdate, messyEmail, messyGender, messyPhone, withOddities } from "./messy-values";
import type { Random } from "./random";
import { dayMs } from "./wall-time";

type CustomerInsert = typeof demoSourceCustomers.$inferInsert;
type VehicleInsert = Omit<typeof demoSourceVehicles.$inferInsert, "id">;

/** A row position past every showcase list (see withOddities). */
const notAShowcaseRow = Number.MAX_SAFE_INTEGER;

export interface CustomerContext {
  sourceKey: string;
  profile: DemoProfile;
  random: Random;
  /** Wall time of today's midnight. */
  today: number;
  years: number;
}

/** The number the front desk sees: "K-10042" in Germany, "C000042" in the US. */
export function customerNumber(profile: DemoProfile, number: number): string {
  return profile.country === "DE" ? `K-${10000 + number}` : `C${String(number).padStart(6, "0")}`;
}

function address(context: CustomerContext): Pick<CustomerInsert, "street" | "addressExtra" | "city" | "postalCode"> {
  const { profile, random } = context;
  if (random.chance(0.05)) return { street: null, addressExtra: null, city: null, postalCode: null };
  const street = random.pick(profile.streets);
  const city = random.pick(profile.cities);
  return {
    street: profile.country === "DE" ? `${street} ${random.int(1, 150)}${random.chance(0.1) ? "a" : ""}` : `${random.int(1, 9999)} ${street}`,
    addressExtra: random.chance(0.1)
      ? random.pick(profile.country === "DE" ? ["c/o Becker", "2. OG", "Hinterhaus"] : ["Apt 4B", "Suite 200", "Unit 12"])
      : null,
    city: city.name,
    postalCode: random.chance(0.03) ? null : random.pick(city.postalCodes),
  };
}

/** One customer as typed at the front desk; `row` is its position in the location (0-based), which decides the showcase oddities. */
export function customerRows(context: CustomerContext, number: number): CustomerInsert[] {
  const { sourceKey, profile, random, today, years } = context;
  const row = number - 1;
  const firstName = random.pick(profile.firstNames);
  const lastName = random.pick(profile.lastNames);
  const email = messyEmail(random, firstName, lastName, profile.emailDomains, row);
  const customer: CustomerInsert = {
    sourceKey,
    customerNo: customerNumber(profile, number),
    firstName: withOddities(row, [null, `${firstName} `], random, 0.03, () => firstName),
    lastName: withOddities(row, [lastName.toUpperCase(), null], random, 0.03, () => lastName),
    email,
    emailOptIn: random.chance(0.05) ? null : Boolean(email) && random.chance(0.6),
    smsOptIn: random.chance(0.05) ? null : random.chance(0.4),
    ...address(context),
    phone: messyPhone(random, profile.country, row),
    birthdate: messyBirthdate(random, new Date(today).getUTCFullYear(), row),
    gender: messyGender(random, row),
    member: random.chance(0.1) ? null : random.chance(0.2),
    updatedAt: new Date(today - random.int(0, years * 365 + 30) * dayMs - random.int(0, 86_399) * 1000),
  };
  // A few customers were entered twice under the same number, the second time with newer details.
  if (row % 100 !== 3) return [customer];
  const duplicate: CustomerInsert = {
    ...customer,
    email: `${customer.customerNo.toLowerCase()}@${random.pick(profile.emailDomains)}`,
    phone: messyPhone(random, profile.country, notAShowcaseRow),
    updatedAt: new Date(today - random.int(0, 30) * dayMs),
  };
  return [customer, duplicate];
}

const vinAlphabet = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
const plateLetters = "ABCDEFGHJKLMNPRSTUVWXYZ";

/** The cars of one customer of an automotive business: none, one or two. */
export function vehicleRows(context: CustomerContext, customerNo: string): VehicleInsert[] {
  const { sourceKey, random, today } = context;
  const count = random.chance(0.25) ? 0 : random.chance(0.8) ? 1 : 2;
  return Array.from({ length: count }, () => {
    const { make, models } = random.pick(vehicleModels);
    const letters = Array.from({ length: 3 }, () => plateLetters.charAt(random.int(0, plateLetters.length - 1))).join("");
    const vin = Array.from({ length: 17 }, () => vinAlphabet.charAt(random.int(0, vinAlphabet.length - 1))).join("");
    return {
      sourceKey,
      customerNo,
      make,
      model: random.chance(0.03) ? null : random.pick(models),
      year: random.chance(0.03) ? null : random.int(1998, new Date(today).getUTCFullYear() + 1),
      licensePlate: random.chance(0.05) ? null : `${letters}${random.pick(["-", " ", ""])}${random.int(1000, 9999)}`,
      vin: random.chance(0.1) ? null : random.chance(0.03) ? vin.slice(0, 9) : vin,
      updatedAt: new Date(today - random.int(0, 700) * dayMs),
    };
  });
}

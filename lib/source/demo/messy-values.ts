// Field values the way a front desk types them: local formats, odd spellings, gaps and plain mistakes.
import type { Random } from "./random";

/**
 * The first rows of each location show every oddity once, so even a tiny data set has all of them;
 * later rows get one at `rate`, otherwise a normal value.
 */
export function withOddities<T>(row: number, oddities: readonly T[], random: Random, rate: number, normal: () => T): T {
  if (row < oddities.length) return oddities[row]!;
  return random.chance(rate) ? random.pick(oddities) : normal();
}

const digits = (random: Random, count: number) => Array.from({ length: count }, () => random.int(0, 9)).join("");

const germanMobilePrefixes = [
  { prefix: "171", length: 7 },
  { prefix: "172", length: 7 },
  { prefix: "170", length: 7 },
  { prefix: "160", length: 7 },
  { prefix: "151", length: 8 },
  { prefix: "176", length: 8 },
];

function germanPhone(random: Random): string {
  if (random.chance(0.3)) {
    const number = digits(random, 8);
    return random.pick([
      `030 ${number}`,
      `030-${number.slice(0, 3)} ${number.slice(3, 6)} ${number.slice(6)}`,
      `(030) ${number}`,
      `+49 30 ${number}`,
    ]);
  }
  const { prefix, length } = random.pick(germanMobilePrefixes);
  const number = digits(random, length);
  return random.pick([
    `0${prefix} ${number}`,
    `0${prefix}-${number}`,
    `0${prefix}/${number}`,
    `(0${prefix}) ${number.slice(0, 3)} ${number.slice(3, 5)} ${number.slice(5)}`,
    `+49 ${prefix} ${number}`,
    `+49 (0)${prefix} ${number}`,
    `0049 ${prefix} ${number}`,
    `0${prefix}${number}`,
  ]);
}

function americanPhone(random: Random): string {
  // 555-01xx: the range reserved for fiction, still a valid number to libphonenumber.
  const area = random.pick(["212", "646", "718", "917", "201", "914"]);
  const line = `01${digits(random, 2)}`;
  return random.pick([
    `(${area}) 555-${line}`,
    `${area}-555-${line}`,
    `${area}.555.${line}`,
    `${area}555${line}`,
    `+1 ${area} 555 ${line}`,
    `1 (${area}) 555-${line}`,
  ]);
}

const phoneOddities = ["n/a", null, "12345", "", "-", "0", "call after 5pm", "+49"];

export function messyPhone(random: Random, country: "DE" | "US", row: number): string | null {
  return withOddities(row, phoneOddities, random, 0.08, () => (country === "DE" ? germanPhone(random) : americanPhone(random)));
}

const genderOddities = ["F", "female", "Male", "divers", "", null, "m", "W", "FEMALE"];

export function messyGender(random: Random, row: number): string | null {
  return withOddities(row, genderOddities, random, 0.2, () => random.pick(["female", "male", "f", "m"]));
}

/** "Zoë Müller" → "zoe.mueller": the ASCII local part people actually register. */
function emailLocalPart(firstName: string, lastName: string): string {
  const ascii = (text: string) =>
    text
      .toLowerCase()
      .replaceAll("ä", "ae")
      .replaceAll("ö", "oe")
      .replaceAll("ü", "ue")
      .replaceAll("ß", "ss")
      .normalize("NFD")
      .replace(/[^a-z]/g, "");
  return `${ascii(firstName)}.${ascii(lastName)}`;
}

const emailOddities = [null, "anna@", "bob at mail.de", "", "kein@mail", " ", "info@@example.com"];

export function messyEmail(random: Random, firstName: string, lastName: string, domains: readonly string[], row: number): string | null {
  return withOddities(row, emailOddities, random, 0.12, () => {
    const address = `${emailLocalPart(firstName, lastName)}${random.chance(0.3) ? random.int(1, 99) : ""}@${random.pick(domains)}`;
    // Some were typed with capitals or a stray space: still valid once trimmed and lower-cased.
    return random.chance(0.05) ? ` ${address.replace(/^./, (first) => first.toUpperCase())} ` : address;
  });
}

const pad = (value: number) => String(value).padStart(2, "0");

/** A birthdate as text: mostly YYYY-MM-DD, sometimes impossible, in the future, German-style or missing. */
export function messyBirthdate(random: Random, todayYear: number, row: number): string | null {
  const oddities = [null, "1985-02-30", `${todayYear + 2}-05-01`, "1990-13-01", "14.03.1985", "", "1979-04-31"];
  return withOddities(row, oddities, random, 0.2, () => `${random.int(1940, todayYear - 16)}-${pad(random.int(1, 12))}-${pad(random.int(1, 28))}`);
}

/** Raw status words, including the spellings older clients of the system wrote. */
export function messyStatus(random: Random, past: boolean): string {
  const roll = random.next();
  if (past) {
    if (roll < 0.78) return "completed";
    if (roll < 0.86) return "canceled";
    if (roll < 0.91) return "no-show";
    if (roll < 0.94) return "booked";
    if (roll < 0.97) return "Canceled";
    if (roll < 0.99) return "NO_SHOW";
    return "Completed";
  }
  if (roll < 0.9) return "booked";
  if (roll < 0.97) return "canceled";
  return "Canceled";
}

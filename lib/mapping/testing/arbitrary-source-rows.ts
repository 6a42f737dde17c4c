import fc from "fast-check";
import type { SourceResource, SourceRowOf } from "@/lib/source/source-rows";
import type { MappingContext } from "../mapping-types";

// Messy source values as a management system may hold them: any text, blanks, nulls, and near misses of valid values.

const blank = fc.constantFrom("", " ", "\t", " \n ");
const anyText = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), blank);
const nullable = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null, freq: 4 });
const messyText = nullable(anyText);
const plausibleId = fc.stringMatching(/^ ?[a-z0-9-]{1,12} ?$/);
const sourceId = fc.oneof(plausibleId, plausibleId, anyText);
const messyReference = nullable(sourceId);
const messyBoolean = nullable(fc.boolean());
const messyNumber = nullable(fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 60)));
const pad = (value: number, width: number) => String(value).padStart(width, "0");

const messyDate = fc
  .tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
  .map(([year, month, day]) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`);

const plausibleDate = fc
  .tuple(fc.integer({ min: 1890, max: 2110 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
  .map(([year, month, day]) => `${year}-${pad(month, 2)}-${pad(day, 2)}`);

const time = fc
  .tuple(fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }))
  .map(([hour, minute, second]) => `${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}`);

// Dates of clock changes in the sample zones, where gaps and overlaps live.
const clockChangeDate = fc.constantFrom("2026-03-29", "2026-10-25", "2026-03-08", "2026-11-01", "2026-04-05", "2026-10-04", "2011-12-30");

const wallTime = nullable(
  fc.oneof(
    fc.tuple(fc.oneof(plausibleDate, messyDate), time).map(([date, clock]) => `${date} ${clock}`),
    fc
      .tuple(clockChangeDate, fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 59 }))
      .map(([date, hour, minute]) => `${date} ${pad(hour, 2)}:${pad(minute, 2)}:00`),
    anyText,
  ),
);

// A well-formed wall time and one some minutes later (across clock changes too), so complete appointments are common.
const wallTimeOf = (date: Date) => date.toISOString().slice(0, 19).replace("T", " ");
const startWallClock = fc.oneof(
  fc.date({ min: new Date("1950-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }),
  fc
    .tuple(clockChangeDate, fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 59 }))
    .map(([date, hour, minute]) => new Date(`${date}T${pad(hour, 2)}:${pad(minute, 2)}:00Z`)),
);
const wallTimeSpan = fc
  .tuple(startWallClock, fc.integer({ min: 0, max: 600 }))
  .map(([start, minutes]) => [wallTimeOf(start), wallTimeOf(new Date(start.getTime() + minutes * 60_000))] as const);

const caseAndSpaces = (value: string) =>
  fc.tuple(fc.boolean(), blank).map(([upper, space]) => `${space}${upper ? value.toUpperCase() : value}${space}`);

const email = nullable(
  fc.oneof(
    fc.emailAddress().chain(caseAndSpaces),
    fc.emailAddress().map((address) => address.replace("@", "")),
    fc.emailAddress().map((address) => address.replace(/\.[^.]+$/, "")),
    fc.emailAddress().map((address) => address.replace("@", " @")),
    anyText,
  ),
);

const phone = nullable(
  fc.oneof(
    fc.constantFrom("0171 2345678", "+49 30 123456", "(212) 555-2368", "07911 123456", "+44 7911 123456", "0044 7911 123456", "+1 415 555 0100"),
    fc
      .tuple(fc.constantFrom("", "+", "+49 ", "0", "00", "(0", "+1 "), fc.stringMatching(/^[0-9 ()./-]{0,18}$/))
      .map(([prefix, digits]) => prefix + digits),
    anyText,
  ),
);

const birthdate = nullable(
  fc.oneof(
    plausibleDate,
    messyDate,
    plausibleDate.map((date) => date.split("-").reverse().join(".")),
    anyText,
  ),
);
const gender = nullable(
  fc.oneof(fc.constantFrom("F", "m", "Frau", "Herr", "divers", "non-binary", "Unknown", "n/a", "m/w", "MÄNNLICH", "İ"), anyText),
);
const price = nullable(fc.oneof(fc.stringMatching(/^ ?-?[0-9]{1,20}(\.[0-9]{0,5})? ?$/), fc.constantFrom("19,90", "1e3", "NaN"), anyText));
const status = nullable(
  fc.oneof(fc.constantFrom("booked", "Completed", "Canceled", "cancelled", "NO_SHOW", "no show", "noshow", "tentative"), anyText),
);
const updatedAt = nullable(fc.date({ noInvalidDate: true }));

export const arbitraryRowOf: { [R in SourceResource]: fc.Arbitrary<SourceRowOf[R]> } = {
  staff: fc.record({ id: sourceId, first_name: messyText, last_name: messyText, display_name: messyText }),
  service_categories: fc.record({ id: sourceId, name: messyText, position: messyNumber }),
  services: fc.record({
    id: sourceId,
    name: messyText,
    description: messyText,
    bookable: messyBoolean,
    price,
    category_id: messyReference,
    staff_ids: nullable(fc.array(sourceId, { maxLength: 6 })),
    position: messyNumber,
  }),
  customers: fc.record({
    id: sourceId,
    first_name: messyText,
    last_name: messyText,
    email,
    email_opt_in: messyBoolean,
    sms_opt_in: messyBoolean,
    address_line_1: messyText,
    address_line_2: messyText,
    city: messyText,
    postal_code: messyText,
    phone,
    birthdate,
    gender,
    member: messyBoolean,
    updated_at: updatedAt,
  }),
  vehicles: fc.record({
    id: sourceId,
    customer_id: messyReference,
    make: messyText,
    model: messyText,
    year: messyNumber,
    license_plate: messyText,
    vin: messyText,
    updated_at: updatedAt,
  }),
  appointments: fc.oneof(
    fc.record({
      id: sourceId,
      customer_id: messyReference,
      service_id: messyReference,
      staff_id: messyReference,
      starts_at: wallTime,
      ends_at: wallTime,
      price,
      status,
      updated_at: updatedAt,
    }),
    fc
      .record({
        id: plausibleId,
        customer_id: plausibleId,
        service_id: plausibleId,
        staff_id: plausibleId,
        span: wallTimeSpan,
        price,
        status,
        updated_at: updatedAt,
      })
      .map(({ span: [starts_at, ends_at], ...row }) => ({ ...row, starts_at, ends_at })),
  ),
  availability: fc.oneof(
    fc.record({ staff_id: messyReference, service_id: messyReference, starts_at: wallTime }),
    fc.record({ staff_id: plausibleId, service_id: plausibleId, starts_at: wallTimeSpan.map(([start]) => start) }),
  ),
};

const sampleZones = [
  "Europe/Berlin",
  "America/New_York",
  "Australia/Lord_Howe",
  "Asia/Kathmandu",
  "Pacific/Chatham",
  "America/St_Johns",
  "Pacific/Apia",
  "UTC",
];

/** A location anywhere (zones with half-hour offsets and odd clock changes included); the style is set per check. */
export const arbitraryContext: fc.Arbitrary<Omit<MappingContext, "dateTimeStyle">> = fc.record({
  timeZone: fc.constantFrom(...sampleZones),
  country: fc.constantFrom("DE", "US", "GB", "AT", "CH", "AU", "NZ", "de"),
  now: fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }),
});

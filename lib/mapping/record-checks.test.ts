import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { formatUpstreamDateTime, type DateTimeStyle } from "@/lib/upstream/formats";
import { appointmentRecordOf, ContactDetailRecord, recordSchemasOf } from "@/lib/upstream/records";
import { arbitraryInstant, arbitraryZone } from "@/lib/upstream/testing/luxon-formats";
import { appointmentKeys, contactDetailKeys, passesPlainCheck } from "./record-checks";

const styles: DateTimeStyle[] = ["spec", "rfc3339"];
const numRuns = 3000;

// Values of every field: mostly valid ones (so that whole records often pass), and invalid ones of the right type and not.
const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: invalid });
const optional = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined, freq: 3 });

const reference = mostly(optional(fc.constantFrom(" ", "a", "K-10001", "42")), fc.constantFrom("", 42, null));
const externalId = mostly(fc.constantFrom("a", "K-10001", "42"), fc.constantFrom(undefined, "", 42, null));
const serviceId = mostly(fc.constant(undefined), fc.constantFrom("a", "", 42));
const text = mostly(optional(fc.string()), fc.constantFrom(3, null, true));
const flag = mostly(optional(fc.boolean()), fc.constantFrom("true", 0, null));
const price = mostly(
  optional(fc.integer({ min: 0 })),
  fc.constantFrom(-5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, 2 ** 53 - 1, "100", null),
);
const email = mostly(
  optional(fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,8}[a-z0-9]@[a-z]{1,8}\.[a-z]{2,4}$/)),
  fc.oneof(
    fc.constantFrom("", "a@b", "kein@mail", "x@y.de ", ".a@example.com", "a..b@example.com", "a@example.c0m", "info@@example.com", 5),
    fc.emailAddress(),
    fc.string(),
  ),
);
const mobile = mostly(
  optional(fc.stringMatching(/^\+[0-9]{1,15}$/)),
  fc.oneof(fc.constantFrom("+", "0171", "+49 171", "+4917١", 491711234567), fc.stringMatching(/^\+?[0-9 ]{0,6}$/)),
);
const birthdate = mostly(
  optional(fc.constantFrom("1985-02-28", "2024-02-29", "2999-01-01", "0000-01-01")),
  fc.constantFrom("2025-02-29", "1985-02-30", "1985-2-3", "19850228", 19850228),
);
const gender = mostly(optional(fc.stringMatching(/^[a-z]{1,8}$/)), fc.oneof(fc.constantFrom("Female", "", "ä", "x y", 1), fc.string()));
// An extra key the strict schemas refuse, now and then.
const extraKey = mostly(fc.constant(undefined), fc.constantFrom("name", "__proto__", "toString"));

// Date-times as the mapping writes them, in either style (so one style's form is wrong), and near misses.
const wellFormed = (instant: number, zone: string, style: DateTimeStyle) => formatUpstreamDateTime(instant, zone, style);
const nearMiss = fc.constantFrom(
  undefined,
  "",
  "2026-02-30T10:00:00Z+01:00",
  "2026-06-20T24:00:00Z+02:00",
  "2026-06-20T09:30:00Z+18:00",
  "2026-06-20T09:30:00Z+18:01",
  "2026-06-20T09:30:00Z-00:00",
  "2026-06-20T09:30:00Z+02:60",
  "0000-01-01T00:00:00Z+14:00",
  "9999-12-31T23:59:59Z-14:00",
  "2026-06-20 09:30:00Z+02:00",
  "2026-06-20T09:30:00z+02:00",
  "2026-06-20T09:30:00+18:00",
  "2026-06-20T09:30:00-00:00",
  1_750_000_000_000,
);

// A start and an end minutes apart, in either order, mostly in the style checked; or any two.
const spanIn = (style: DateTimeStyle) =>
  fc
    .oneof(
      {
        weight: 8,
        arbitrary: fc.tuple(
          arbitraryInstant,
          fc.integer({ min: -120, max: 600 }),
          arbitraryZone,
          mostly(fc.constant(style), fc.constantFrom(...styles)),
        ),
      },
      { weight: 1, arbitrary: fc.tuple(nearMiss, nearMiss) },
    )
    .map((value) => {
      if (value.length === 2) return value;
      const [instant, minutes, zone, endStyle] = value;
      return [wellFormed(instant, zone, style), wellFormed(instant + minutes * 60_000, zone, endStyle)] as const;
    });

// Present with undefined, or absent, as a mapper may build either.
function record(fields: Record<string, unknown>, dropUndefined: boolean, extra: string | undefined): Record<string, unknown> {
  const built: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined || !dropUndefined) built[key] = value;
  if (extra !== undefined) Object.defineProperty(built, extra, { value: "x", enumerable: true, writable: true, configurable: true });
  return built;
}

const appointmentIn = (style: DateTimeStyle) =>
  fc
    .tuple(
      fc.record({
        external_id: externalId,
        id: serviceId,
        contact_detail_external_id: reference,
        service_external_id: reference,
        calendar_external_id: reference,
        price_cents: price,
      }),
      spanIn(style),
      fc.boolean(),
      extraKey,
    )
    .map(([fields, [start_at, end_at], dropUndefined, extra]) => record({ ...fields, start_at, end_at }, dropUndefined, extra));

const contactDetail = fc
  .tuple(
    fc.record({
      external_id: externalId,
      id: serviceId,
      email,
      email_subscribed: flag,
      text_message_subscribed: flag,
      first_name: text,
      last_name: text,
      address_line_1: text,
      address_line_2: text,
      city: text,
      postal_code: text,
      mobile_phone_number: mobile,
      birthdate,
      gender,
      active_membership: flag,
    }),
    fc.boolean(),
    extraKey,
  )
  .map(([fields, dropUndefined, extra]) => record(fields, dropUndefined, extra));

describe("passesPlainCheck decides as the upstream schema", () => {
  test.each(styles)("for appointment records (%s)", (style) => {
    const schema = recordSchemasOf(style).appointments;
    fc.assert(
      fc.property(appointmentIn(style), (record) => {
        expect(passesPlainCheck("appointments", record, style)).toBe(schema.safeParse(record).success);
      }),
      { numRuns },
    );
  });

  test("for contact detail records", () => {
    fc.assert(
      fc.property(contactDetail, (record) => {
        expect(passesPlainCheck("contact_details", record, "spec")).toBe(ContactDetailRecord.safeParse(record).success);
      }),
      { numRuns },
    );
  });

  test("knows every field of both schemas", () => {
    expect([...appointmentKeys].sort()).toEqual(Object.keys(appointmentRecordOf("spec").shape).sort());
    expect([...contactDetailKeys].sort()).toEqual(Object.keys(ContactDetailRecord.shape).sort());
  });

  test("leaves the other record types to their schemas", () => {
    expect(passesPlainCheck("calendars", { external_id: "staff-1" }, "spec")).toBe(false);
  });
});

import { describe, expect, test } from "vitest";
import {
  AccessTokenResponse,
  CurrentUserResponse,
  DateRangeImportBody,
  OpeningsImportBody,
  PutDataUrlResponse,
  UpdateManagementSystemBody,
} from "./endpoints";
import {
  appointmentRecordOf,
  AppointmentRecord,
  CalendarRecord,
  ContactDetailRecord,
  findDuplicateExternalIds,
  OpeningRecord,
  recordSchemas,
  ServiceCategoryRecord,
  ServiceRecord,
  VehicleRecord,
} from "./records";

const appointment = {
  external_id: "apt-1",
  start_at: "2026-03-29T09:30:00Z+02:00",
  end_at: "2026-03-29T10:30:00Z+02:00",
  contact_detail_external_id: "c-1",
  service_external_id: "svc-1",
  calendar_external_id: "cal-1",
  price_cents: 2500,
};

describe("record schemas", () => {
  test("accept complete records of every type", () => {
    expect(CalendarRecord.parse({ external_id: "cal-1", name: "Alice" })).toEqual({ external_id: "cal-1", name: "Alice" });
    expect(ServiceCategoryRecord.safeParse({ external_id: "cat-1", name: "Hair", list_order: 1 }).success).toBe(true);
    expect(
      ServiceRecord.safeParse({
        external_id: "svc-1",
        name: "Cut",
        description: "A haircut",
        available: true,
        price_cents: 2500,
        service_category_external_id: "cat-1",
        calendar_external_ids: ["cal-1"],
        list_order: 2,
      }).success,
    ).toBe(true);
    expect(
      ContactDetailRecord.safeParse({
        external_id: "c-1",
        email: "ada@example.com",
        email_subscribed: true,
        text_message_subscribed: false,
        first_name: "Ada",
        last_name: "Lovelace",
        address_line_1: "1 Main St",
        address_line_2: "Flat 2",
        city: "London",
        postal_code: "N1",
        mobile_phone_number: "+441234567890",
        birthdate: "1990-12-10",
        gender: "female",
        active_membership: true,
      }).success,
    ).toBe(true);
    expect(AppointmentRecord.safeParse(appointment).success).toBe(true);
    expect(OpeningRecord.safeParse({ start_at: "2026-03-29T09:30:00Z+02:00", calendar_external_id: "cal-1" }).success).toBe(true);
  });

  test("reject a record carrying both external_id and id, and one carrying neither", () => {
    for (const schema of [CalendarRecord, ServiceRecord, ContactDetailRecord, VehicleRecord]) {
      expect(schema.safeParse({ external_id: "x", id: "y" }).success).toBe(false);
      expect(schema.safeParse({}).success).toBe(false);
      expect(schema.safeParse({ id: "y" }).success).toBe(true);
    }
    expect(AppointmentRecord.safeParse({ ...appointment, id: "svc-issued" }).success).toBe(false);
  });

  test("reject fields the spec does not list, except on vehicles", () => {
    expect(CalendarRecord.safeParse({ external_id: "cal-1", colour: "red" }).success).toBe(false);
    expect(ContactDetailRecord.safeParse({ external_id: "c-1", phone: "+1" }).success).toBe(false);
    expect(OpeningRecord.safeParse({ start_at: "2026-03-29T09:30:00Z+02:00", calendar_external_id: "cal-1", service_external_id: "s" }).success).toBe(
      false,
    );
    expect(VehicleRecord.parse({ external_id: "v-1", contact_detail_external_id: "c-1", make: "VW", year: 2019 })).toEqual({
      external_id: "v-1",
      contact_detail_external_id: "c-1",
      make: "VW",
      year: 2019,
    });
  });

  test("reject wrong formats and types field by field", () => {
    const bad: [unknown, string][] = [
      [{ external_id: "c-1", mobile_phone_number: "0151 1234" }, "mobile_phone_number"],
      [{ external_id: "c-1", birthdate: "10.12.1990" }, "birthdate"],
      [{ external_id: "c-1", birthdate: "1990-02-30" }, "birthdate"],
      [{ external_id: "c-1", email: "not-an-email" }, "email"],
      [{ external_id: "c-1", gender: "Female" }, "gender"],
      [{ external_id: "c-1", email_subscribed: "yes" }, "email_subscribed"],
      [{ external_id: "" }, "external_id"],
    ];
    for (const [value, field] of bad) {
      const parsed = ContactDetailRecord.safeParse(value);
      expect(parsed.success, JSON.stringify(value)).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual([field]);
    }
    expect(ServiceRecord.safeParse({ external_id: "s", price_cents: 25.5 }).success).toBe(false);
    expect(ServiceRecord.safeParse({ external_id: "s", list_order: "1" }).success).toBe(false);
    expect(ServiceRecord.safeParse({ external_id: "s", available: 1 }).success).toBe(false);
  });

  test("require start_at and end_at on appointments, in order, in the chosen style", () => {
    expect(AppointmentRecord.safeParse({ external_id: "a" }).success).toBe(false);
    expect(AppointmentRecord.safeParse({ ...appointment, end_at: "2026-03-29T09:00:00Z+02:00" }).error?.issues[0]?.path).toEqual(["end_at"]);
    // Same instant written at two offsets is in order.
    expect(
      AppointmentRecord.safeParse({ ...appointment, start_at: "2026-03-29T09:30:00Z+02:00", end_at: "2026-03-29T07:30:00Z+00:00" }).success,
    ).toBe(true);
    expect(AppointmentRecord.safeParse({ ...appointment, start_at: "2026-03-29T09:30:00+02:00" }).success).toBe(false);
    const rfc = appointmentRecordOf("rfc3339");
    expect(rfc.safeParse({ ...appointment, start_at: "2026-03-29T09:30:00+02:00", end_at: "2026-03-29T10:30:00+02:00" }).success).toBe(true);
  });

  test("require calendar_external_id and start_at on openings", () => {
    expect(OpeningRecord.safeParse({ start_at: "2026-03-29T09:30:00Z+02:00" }).success).toBe(false);
    expect(OpeningRecord.safeParse({ calendar_external_id: "cal-1" }).success).toBe(false);
  });

  test("are listed by record type", () => {
    expect(Object.keys(recordSchemas).sort()).toEqual(
      ["appointments", "calendars", "contact_details", "openings", "service_categories", "services", "vehicles"].sort(),
    );
  });
});

describe("findDuplicateExternalIds", () => {
  test("reports every repeat with where the external_id first appeared", () => {
    const records = [{ external_id: "a" }, { external_id: "b" }, { external_id: "a" }, { id: "x" }, { external_id: "a" }, { external_id: "b" }];
    expect(findDuplicateExternalIds(records)).toEqual([
      { index: 2, firstIndex: 0, externalId: "a" },
      { index: 4, firstIndex: 0, externalId: "a" },
      { index: 5, firstIndex: 1, externalId: "b" },
    ]);
    expect(findDuplicateExternalIds([{ external_id: "a" }, { external_id: "b" }])).toEqual([]);
  });
});

describe("endpoint bodies", () => {
  test("date ranges are real dates with start not after end", () => {
    expect(DateRangeImportBody.safeParse({ start_date: "2026-01-01", end_date: "2026-01-01" }).success).toBe(true);
    expect(DateRangeImportBody.safeParse({ start_date: "2026-01-02", end_date: "2026-01-01" }).success).toBe(false);
    expect(DateRangeImportBody.safeParse({ start_date: "2026-02-30", end_date: "2026-03-01" }).success).toBe(false);
    expect(OpeningsImportBody.safeParse({ start_date: "2026-01-01", end_date: "2026-01-03", service_external_id: "svc-1" }).success).toBe(true);
    expect(OpeningsImportBody.safeParse({ start_date: "2026-01-01", end_date: "2026-01-03", service_external_id: ["a", "b"] }).success).toBe(false);
  });

  test("update_management_system needs the data source name and a boolean", () => {
    expect(UpdateManagementSystemBody.safeParse({ management_system: "Acme", management_system_sync_in_progress: true }).success).toBe(true);
    expect(UpdateManagementSystemBody.safeParse({ management_system: "Acme", management_system_sync_in_progress: "true" }).success).toBe(false);
  });

  test("users/me requires nothing: it keeps the string fields it can show and never fails on shape", () => {
    expect(CurrentUserResponse.parse({ id: "u1", email: "a@b.c", extra: 1 })).toEqual({ id: "u1", email: "a@b.c" });
    expect(CurrentUserResponse.parse({ email: "a@b.c" })).toEqual({ email: "a@b.c" });
    expect(CurrentUserResponse.parse({ id: 42, email: { value: "a@b.c" }, name: "  Ada  " })).toEqual({ name: "Ada" });
    expect(CurrentUserResponse.parse({ email: "", name: "x".repeat(1000) })).toEqual({});
    for (const body of [undefined, null, "OK", 7, [], { data: { result: { email: "a@b.c" } } }]) {
      expect(CurrentUserResponse.parse(body), JSON.stringify(body)).toEqual({});
    }
  });

  test("what the spec shows stays required: access_token and put_data_url", () => {
    expect(AccessTokenResponse.parse({ access_token: "t", extra: 1 })).toEqual({ access_token: "t" });
    expect(AccessTokenResponse.safeParse({ token: "t" }).success).toBe(false);
    expect(AccessTokenResponse.safeParse({ access_token: "" }).success).toBe(false);
    expect(PutDataUrlResponse.parse({ put_data_url: "https://u.test/1", data: { result: {} } })).toEqual({ put_data_url: "https://u.test/1" });
    expect(PutDataUrlResponse.safeParse({ data: { put_data_url: "https://u.test/1" } }).success).toBe(false);
    expect(PutDataUrlResponse.safeParse({ put_data_url: "not a url" }).success).toBe(false);
  });
});

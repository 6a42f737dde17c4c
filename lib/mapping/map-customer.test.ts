import { describe, expect, test } from "vitest";
import { mapCustomer } from "./map-customer";
import { berlinContext, customerRow } from "./testing/mapping-fixtures";

describe("mapCustomer", () => {
  test("maps every field, normalising e-mail, phone, birthdate and gender", () => {
    const row = customerRow({ email: " Grace@Example.com ", first_name: " Grace ", address_line_2: "  Hinterhaus\n 2. OG " });
    expect(mapCustomer(row, berlinContext)).toEqual({
      sourceId: "cust-1",
      record: {
        external_id: "cust-1",
        email: "grace@example.com",
        email_subscribed: true,
        text_message_subscribed: false,
        first_name: "Grace",
        last_name: "Hopper",
        address_line_1: "Hauptstraße 1",
        address_line_2: "Hinterhaus 2. OG",
        city: "Berlin",
        postal_code: "10115",
        mobile_phone_number: "+491712345678",
        birthdate: "1985-02-28",
        gender: "female",
        active_membership: true,
      },
      issues: [],
      excludedByRule: null,
    });
  });

  test("reads phones in the location's country", () => {
    const newYork = { ...berlinContext, timeZone: "America/New_York", country: "US" };
    expect(mapCustomer(customerRow({ phone: "(212) 555-2368" }), newYork).record?.mobile_phone_number).toBe("+12125552368");
  });

  test("sends emptied text fields as empty strings so the upstream clears them", () => {
    const row = customerRow({ first_name: null, last_name: " ", address_line_1: "", address_line_2: null, city: "\t", postal_code: null });
    expect(mapCustomer(row, berlinContext).record).toMatchObject({
      first_name: "",
      last_name: "",
      address_line_1: "",
      address_line_2: "",
      city: "",
      postal_code: "",
    });
  });

  test("omits missing formatted fields and unknown booleans; a contact without e-mail or mobile is unsubscribed from them", () => {
    const row = customerRow({ email: null, email_opt_in: null, sms_opt_in: null, phone: " ", birthdate: null, gender: "", member: null, city: null });
    expect(mapCustomer(row, berlinContext)).toEqual({
      sourceId: "cust-1",
      record: {
        external_id: "cust-1",
        email_subscribed: false,
        text_message_subscribed: false,
        first_name: "Grace",
        last_name: "Hopper",
        address_line_1: "Hauptstraße 1",
        address_line_2: "",
        city: "",
        postal_code: "10115",
      },
      issues: [],
      excludedByRule: null,
    });
  });

  test("sends unsubscribed whatever the opt-in says when the e-mail or the mobile is missing", () => {
    const noEmail = mapCustomer(customerRow({ email: "  ", email_opt_in: true, sms_opt_in: true }), berlinContext).record;
    expect(noEmail).toMatchObject({ email_subscribed: false, text_message_subscribed: true });
    expect(noEmail).not.toHaveProperty("email");
    const noMobile = mapCustomer(customerRow({ phone: null, email_opt_in: true, sms_opt_in: true }), berlinContext).record;
    expect(noMobile).toMatchObject({ email_subscribed: true, text_message_subscribed: false });
    expect(noMobile).not.toHaveProperty("mobile_phone_number");
  });

  test.each([
    ["a Berlin landline", "030 12345678", "*** ******78"],
    ["a toll-free number", "0800 1234567", "**** *****67"],
    ["a premium-rate number", "0900 1234567", "**** *****67"],
    ["a landline written internationally", "+49 30 12345678", "+** ** ******78"],
  ])("does not send %s as the mobile number, and sends the contact unsubscribed from texts", (_kind, phone, masked) => {
    const mapped = mapCustomer(customerRow({ phone, sms_opt_in: true }), berlinContext);
    expect(mapped.record).not.toHaveProperty("mobile_phone_number");
    expect(mapped.record?.text_message_subscribed).toBe(false);
    expect(mapped.issues).toEqual([
      { severity: "warning", field: "mobile_phone_number", code: "invalid_phone", reason: "is not a mobile number", original: masked },
    ]);
  });

  test("sends a US number with the opt-in: its numbering plan does not tell a mobile from a landline", () => {
    const newYork = { ...berlinContext, timeZone: "America/New_York", country: "US" };
    const mapped = mapCustomer(customerRow({ phone: "(212) 555-2368", sms_opt_in: true }), newYork);
    expect(mapped.record).toMatchObject({ mobile_phone_number: "+12125552368", text_message_subscribed: true });
    expect(mapped.issues).toEqual([]);
  });

  test("keeps the opt-ins, and unknown ones omitted, when the e-mail and mobile are usable", () => {
    expect(mapCustomer(customerRow({ email_opt_in: false, sms_opt_in: true }), berlinContext).record).toMatchObject({
      email_subscribed: false,
      text_message_subscribed: true,
    });
    const unknown = mapCustomer(customerRow({ email_opt_in: null, sms_opt_in: null }), berlinContext).record;
    expect(unknown).not.toHaveProperty("email_subscribed");
    expect(unknown).not.toHaveProperty("text_message_subscribed");
  });

  test("drops unusable contact fields with masked warnings and still sends the contact", () => {
    const row = customerRow({ email: "grace.hopper@example", phone: "0171 23", sms_opt_in: true, birthdate: "2026-06-16", gender: "m/w" });
    const mapped = mapCustomer(row, berlinContext);
    // Opted in to both, but neither address is usable: unsubscribed from both.
    expect(mapped.record).toEqual({
      external_id: "cust-1",
      email_subscribed: false,
      text_message_subscribed: false,
      first_name: "Grace",
      last_name: "Hopper",
      address_line_1: "Hauptstraße 1",
      address_line_2: "",
      city: "Berlin",
      postal_code: "10115",
      active_membership: true,
    });
    expect(mapped.issues).toEqual([
      { severity: "warning", field: "email", code: "invalid_email", reason: "is not a valid e-mail address", original: "gr***@" },
      { severity: "warning", field: "mobile_phone_number", code: "invalid_phone", reason: "is not a valid phone number for DE", original: "**** 23" },
      { severity: "warning", field: "birthdate", code: "invalid_birthdate", reason: "is in the future", original: "****-**-**" },
      { severity: "warning", field: "gender", code: "invalid_gender", reason: "is not a single word of letters a–z", original: "m/w" },
    ]);
  });

  test("excludes a row without an id", () => {
    expect(mapCustomer(customerRow({ id: "" }), berlinContext)).toEqual({
      sourceId: "",
      record: null,
      issues: [{ severity: "error", field: "external_id", code: "missing_id", reason: "is missing", original: "" }],
      excludedByRule: null,
    });
  });
});

import { describe, expect, test } from "vitest";
import { referencesOf } from "./references";

const none = { contact: null, service: null, calendar: null, category: null, calendars: null };

describe("referencesOf", () => {
  test("a service points to its category and each of its calendars, in a list of its own", () => {
    const service = { external_id: "svc-1", service_category_external_id: "cat-1", calendar_external_ids: ["staff-1", "staff-2"] };
    const references = referencesOf("services", service);
    expect(references).toEqual({ ...none, category: "cat-1", calendars: ["staff-1", "staff-2"] });
    // A check that takes a calendar out of the payload does not change what the record was read to point to.
    service.calendar_external_ids.pop();
    expect(references.calendars).toEqual(["staff-1", "staff-2"]);
  });

  test("an appointment points to its contact, service and calendar", () => {
    const appointment = {
      external_id: "apt-1",
      start_at: "2026-06-20T09:30:00Z+02:00",
      end_at: "2026-06-20T10:15:00Z+02:00",
      contact_detail_external_id: "cust-1",
      service_external_id: "svc-1",
      calendar_external_id: "staff-1",
    };
    expect(referencesOf("appointments", appointment)).toEqual({ ...none, contact: "cust-1", service: "svc-1", calendar: "staff-1" });
  });

  test("an opening points to its calendar and to the service its request names", () => {
    const opening = { start_at: "2026-06-16T14:00:00Z+02:00", calendar_external_id: "staff-1" };
    expect(referencesOf("openings", opening, "svc-1")).toEqual({ ...none, service: "svc-1", calendar: "staff-1" });
    expect(referencesOf("openings", opening)).toEqual({ ...none, calendar: "staff-1" });
  });

  test("a vehicle points to its owner's contact", () => {
    expect(referencesOf("vehicles", { external_id: "veh-1", contact_detail_external_id: "cust-1" })).toEqual({ ...none, contact: "cust-1" });
  });

  test("absent references and records that point nowhere give none", () => {
    expect(referencesOf("services", { external_id: "svc-1" })).toEqual({ ...none, calendars: [] });
    expect(referencesOf("vehicles", { external_id: "veh-1" })).toEqual(none);
    expect(
      referencesOf("appointments", { external_id: "apt-1", start_at: "2026-06-20T09:30:00Z+02:00", end_at: "2026-06-20T10:15:00Z+02:00" }),
    ).toEqual(none);
    expect(referencesOf("calendars", { external_id: "staff-1", name: "Ada" })).toEqual(none);
    expect(referencesOf("service_categories", { external_id: "cat-1" })).toEqual(none);
    expect(referencesOf("contact_details", { external_id: "cust-1" })).toEqual(none);
  });
});

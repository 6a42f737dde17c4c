import { describe, expect, test } from "vitest";
import { referencesOf } from "./references";

describe("referencesOf", () => {
  test("a service points to its category and each of its calendars", () => {
    const service = { external_id: "svc-1", service_category_external_id: "cat-1", calendar_external_ids: ["staff-1", "staff-2"] };
    expect(referencesOf("services", service)).toEqual([
      { field: "service_category_external_id", targetType: "service_categories", targetExternalId: "cat-1" },
      { field: "calendar_external_ids", targetType: "calendars", targetExternalId: "staff-1" },
      { field: "calendar_external_ids", targetType: "calendars", targetExternalId: "staff-2" },
    ]);
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
    expect(referencesOf("appointments", appointment)).toEqual([
      { field: "contact_detail_external_id", targetType: "contact_details", targetExternalId: "cust-1" },
      { field: "service_external_id", targetType: "services", targetExternalId: "svc-1" },
      { field: "calendar_external_id", targetType: "calendars", targetExternalId: "staff-1" },
    ]);
  });

  test("an opening points to its calendar and to the service its request names", () => {
    const opening = { start_at: "2026-06-16T14:00:00Z+02:00", calendar_external_id: "staff-1" };
    expect(referencesOf("openings", opening, "svc-1")).toEqual([
      { field: "calendar_external_id", targetType: "calendars", targetExternalId: "staff-1" },
      { field: "service_external_id", targetType: "services", targetExternalId: "svc-1" },
    ]);
    expect(referencesOf("openings", opening)).toHaveLength(1);
  });

  test("a vehicle points to its owner's contact", () => {
    expect(referencesOf("vehicles", { external_id: "veh-1", contact_detail_external_id: "cust-1" })).toEqual([
      { field: "contact_detail_external_id", targetType: "contact_details", targetExternalId: "cust-1" },
    ]);
  });

  test("absent references and records that point nowhere give none", () => {
    expect(referencesOf("services", { external_id: "svc-1" })).toEqual([]);
    expect(referencesOf("vehicles", { external_id: "veh-1" })).toEqual([]);
    expect(referencesOf("calendars", { external_id: "staff-1", name: "Ada" })).toEqual([]);
    expect(referencesOf("service_categories", { external_id: "cat-1" })).toEqual([]);
    expect(referencesOf("contact_details", { external_id: "cust-1" })).toEqual([]);
  });
});

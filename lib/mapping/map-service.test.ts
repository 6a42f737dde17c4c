import { describe, expect, test } from "vitest";
import { mapService } from "./map-service";
import { berlinContext, serviceRow } from "./testing/mapping-fixtures";

describe("mapService", () => {
  test("maps every field: price in cents, category, calendars, list order", () => {
    expect(mapService(serviceRow(), berlinContext)).toEqual({
      sourceId: "svc-1",
      record: {
        external_id: "svc-1",
        name: "Haircut",
        description: "Wash, cut and dry",
        available: true,
        price_cents: 2500,
        service_category_external_id: "cat-1",
        calendar_external_ids: ["staff-1"],
        list_order: 2,
      },
      issues: [],
      excludedByRule: null,
    });
  });

  test("is available unless the source says it is not bookable", () => {
    expect(mapService(serviceRow({ bookable: null }), berlinContext).record?.available).toBe(true);
    expect(mapService(serviceRow({ bookable: false }), berlinContext).record?.available).toBe(false);
  });

  test("lists each calendar once, trimmed and sorted, without empty ids", () => {
    const row = serviceRow({ staff_ids: ["staff-2", " staff-1", "staff-2", " ", "staff-1 "] });
    expect(mapService(row, berlinContext).record?.calendar_external_ids).toEqual(["staff-1", "staff-2"]);
  });

  test("sends no calendars as [] and unknown calendars not at all", () => {
    expect(mapService(serviceRow({ staff_ids: [] }), berlinContext).record?.calendar_external_ids).toEqual([]);
    expect(mapService(serviceRow({ staff_ids: null }), berlinContext).record).not.toHaveProperty("calendar_external_ids");
  });

  test("omits empty optional fields, but sends an emptied description as an empty string so the upstream clears it", () => {
    const row = serviceRow({ description: " ", price: null, category_id: " ", position: null });
    expect(mapService(row, berlinContext).record).toEqual({
      external_id: "svc-1",
      name: "Haircut",
      description: "",
      available: true,
      calendar_external_ids: ["staff-1"],
    });
    expect(mapService(serviceRow({ description: null }), berlinContext).record?.description).toBe("");
  });

  test("drops an unusable price and list order with warnings; the service is still sent", () => {
    const mapped = mapService(serviceRow({ price: "-5.00", position: 2.5, name: null }), berlinContext);
    expect(mapped.record).toEqual({
      external_id: "svc-1",
      description: "Wash, cut and dry",
      available: true,
      service_category_external_id: "cat-1",
      calendar_external_ids: ["staff-1"],
    });
    expect(mapped.issues).toEqual([
      { severity: "warning", field: "name", code: "missing_name", reason: "is missing", original: null },
      { severity: "warning", field: "price_cents", code: "negative_price", reason: "is negative", original: "-5.00" },
      { severity: "warning", field: "list_order", code: "invalid_integer", reason: "is not a whole number", original: "2.5" },
    ]);
  });

  test("excludes a row without an id", () => {
    expect(mapService(serviceRow({ id: " " }), berlinContext)).toMatchObject({
      record: null,
      issues: [{ severity: "error", field: "external_id", code: "missing_id" }],
    });
  });
});

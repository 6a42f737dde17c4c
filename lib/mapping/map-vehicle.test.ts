import { describe, expect, test } from "vitest";
import { mapVehicle } from "./map-vehicle";
import { berlinContext, vehicleRow } from "./testing/mapping-fixtures";

describe("mapVehicle", () => {
  test("passes the source's fields through beside the owner's contact", () => {
    expect(mapVehicle(vehicleRow({ customer_id: " cust-1 ", license_plate: " B-AB  1234 " }), berlinContext)).toEqual({
      sourceId: "veh-1",
      record: {
        external_id: "veh-1",
        contact_detail_external_id: "cust-1",
        make: "Volkswagen",
        model: "Golf",
        year: 2019,
        license_plate: "B-AB 1234",
        vin: "WVWZZZ1KZAW000001",
      },
      issues: [],
      excludedByRule: null,
    });
  });

  test("omits missing fields; a vehicle without an owner is still sent", () => {
    const row = vehicleRow({ customer_id: null, make: null, model: " ", year: null, license_plate: null, vin: null });
    expect(mapVehicle(row, berlinContext)).toMatchObject({ record: { external_id: "veh-1" }, issues: [] });
    expect(Object.keys(mapVehicle(row, berlinContext).record ?? {})).toEqual(["external_id"]);
  });

  test("drops a year that is not whole, with a warning", () => {
    expect(mapVehicle(vehicleRow({ year: 2019.5 }), berlinContext).issues).toEqual([
      { severity: "warning", field: "year", code: "invalid_integer", reason: "is not a whole number", original: "2019.5" },
    ]);
  });

  test("excludes a row without an id", () => {
    expect(mapVehicle(vehicleRow({ id: " " }), berlinContext)).toMatchObject({ record: null, issues: [{ severity: "error", code: "missing_id" }] });
  });
});

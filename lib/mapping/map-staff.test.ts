import { describe, expect, test } from "vitest";
import { mapStaff } from "./map-staff";
import { berlinContext, staffRow } from "./testing/mapping-fixtures";

describe("mapStaff", () => {
  test("names the calendar by first and last name, the id trimmed as external_id", () => {
    expect(mapStaff(staffRow({ id: " staff-1 " }), berlinContext)).toEqual({
      sourceId: "staff-1",
      record: { external_id: "staff-1", name: "Ada Lovelace" },
      issues: [],
      excludedByRule: null,
    });
  });

  test("prefers the display name", () => {
    expect(mapStaff(staffRow({ display_name: "  Ada  L. " }), berlinContext).record).toEqual({ external_id: "staff-1", name: "Ada L." });
  });

  test("uses whichever of first and last name is there", () => {
    expect(mapStaff(staffRow({ first_name: null, last_name: " Lovelace " }), berlinContext).record?.name).toBe("Lovelace");
  });

  test("sends a calendar without any name, with a warning", () => {
    expect(mapStaff(staffRow({ first_name: " ", last_name: null }), berlinContext)).toEqual({
      sourceId: "staff-1",
      record: { external_id: "staff-1" },
      issues: [{ severity: "warning", field: "name", code: "missing_name", reason: "is missing (no display, first or last name)", original: null }],
      excludedByRule: null,
    });
  });

  test("excludes a row without an id", () => {
    expect(mapStaff(staffRow({ id: "  " }), berlinContext)).toEqual({
      sourceId: "",
      record: null,
      issues: [{ severity: "error", field: "external_id", code: "missing_id", reason: "is missing", original: "  " }],
      excludedByRule: null,
    });
  });
});

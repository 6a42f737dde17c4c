import { describe, expect, test } from "vitest";
import { mapServiceCategory } from "./map-service-category";
import { berlinContext, serviceCategoryRow } from "./testing/mapping-fixtures";

describe("mapServiceCategory", () => {
  test("maps name and position (as list_order)", () => {
    expect(mapServiceCategory(serviceCategoryRow({ name: " Hair  & Beauty " }), berlinContext)).toEqual({
      sourceId: "cat-1",
      record: { external_id: "cat-1", name: "Hair & Beauty", list_order: 1 },
      issues: [],
      excludedByRule: null,
    });
  });

  test("omits a missing position without an issue and drops one that is not whole, with a warning", () => {
    expect(mapServiceCategory(serviceCategoryRow({ position: null }), berlinContext)).toMatchObject({
      record: { external_id: "cat-1", name: "Hair" },
      issues: [],
    });
    expect(mapServiceCategory(serviceCategoryRow({ position: 1.5 }), berlinContext)).toEqual({
      sourceId: "cat-1",
      record: { external_id: "cat-1", name: "Hair" },
      issues: [{ severity: "warning", field: "list_order", code: "invalid_integer", reason: "is not a whole number", original: "1.5" }],
      excludedByRule: null,
    });
  });

  test("sends a category without a name, with a warning", () => {
    expect(mapServiceCategory(serviceCategoryRow({ name: null }), berlinContext).issues).toEqual([
      { severity: "warning", field: "name", code: "missing_name", reason: "is missing", original: null },
    ]);
  });

  test("excludes a row without an id", () => {
    expect(mapServiceCategory(serviceCategoryRow({ id: "" }), berlinContext)).toEqual({
      sourceId: "",
      record: null,
      issues: [{ severity: "error", field: "external_id", code: "missing_id", reason: "is missing", original: "" }],
      excludedByRule: null,
    });
  });
});

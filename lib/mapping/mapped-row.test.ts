import { describe, expect, test } from "vitest";
import { checkedRow, withoutUndefined } from "./mapped-row";
import { berlinContext } from "./testing/mapping-fixtures";

describe("checkedRow", () => {
  test("passes a record that matches its upstream schema", () => {
    expect(checkedRow("calendars", "staff-1", { external_id: "staff-1", name: "Ada" }, [], berlinContext)).toEqual({
      sourceId: "staff-1",
      record: { external_id: "staff-1", name: "Ada" },
      issues: [],
      excludedByRule: null,
    });
  });

  test("excludes a record that does not, naming the schema's complaint (the last guard against a mapping bug)", () => {
    const mapped = checkedRow("calendars", "staff-1", { external_id: "", name: "Ada" }, [], berlinContext);
    expect(mapped.record).toBeNull();
    expect(mapped.issues).toEqual([
      {
        severity: "error",
        field: "external_id",
        code: "invalid_record",
        reason: "does not match the upstream schema: must not be empty",
        original: null,
      },
    ]);
  });

  test("checks against the schema of the context's date-time style", () => {
    const record = { start_at: "2026-06-20T09:30:00+02:00", calendar_external_id: "staff-1" };
    expect(checkedRow("openings", "x", record, [], { ...berlinContext, dateTimeStyle: "rfc3339" }).record).toEqual(record);
    expect(checkedRow("openings", "x", record, [], berlinContext).record).toBeNull();
  });

  test("excludes a record that already has an error", () => {
    const error = { severity: "error", field: "external_id", code: "missing_id", reason: "is missing", original: null } as const;
    expect(checkedRow("calendars", "", { external_id: "x" }, [error], berlinContext)).toMatchObject({ record: null, issues: [error] });
  });
});

describe("withoutUndefined", () => {
  test("leaves out undefined fields and keeps null, false and 0", () => {
    expect(Object.keys(withoutUndefined({ a: undefined, b: null, c: false, d: 0 }))).toEqual(["b", "c", "d"]);
  });
});

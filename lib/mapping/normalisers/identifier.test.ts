import { describe, expect, test } from "vitest";
import { normaliseIdentifier, requireExternalId, requireReference } from "./identifier";

describe("identifiers", () => {
  test("are trimmed; empty names nothing", () => {
    expect(normaliseIdentifier("  c-1 ")).toBe("c-1");
    expect(normaliseIdentifier("   ")).toBeUndefined();
    expect(normaliseIdentifier(null)).toBeUndefined();
  });

  test("a missing own id is an error on external_id", () => {
    expect(requireExternalId(" ")).toEqual({
      value: undefined,
      issues: [{ severity: "error", field: "external_id", code: "missing_id", reason: "is missing", original: " " }],
    });
    expect(requireExternalId(null).issues[0]?.original).toBeNull();
    expect(requireExternalId(" a-1 ")).toEqual({ value: "a-1", issues: [] });
  });

  test("a missing required reference is an error on the reference field", () => {
    expect(requireReference(null, "service_external_id")).toEqual({
      value: undefined,
      issues: [{ severity: "error", field: "service_external_id", code: "missing_reference", reason: "is missing", original: null }],
    });
  });
});

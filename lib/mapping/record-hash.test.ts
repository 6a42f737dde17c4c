import { describe, expect, test } from "vitest";
import { recordHash } from "./record-hash";

describe("recordHash", () => {
  test("is the sha256 hex of the canonical JSON, the same in every run", () => {
    // sha256 of {"external_id":"staff-1","name":"Ada"}
    expect(recordHash({ name: "Ada", external_id: "staff-1" })).toBe("3b3b0e988ef864dfee253e15ff1b94283fdd82b8197a9b10c70ec5d830513e5d");
  });

  test("does not depend on key order at any depth, nor on undefined fields", () => {
    const first = { b: 1, a: { y: [1, { q: true, p: null }], x: "x" }, c: undefined };
    const second = { a: { x: "x", y: [1, { p: null, q: true }] }, b: 1 };
    expect(recordHash(first)).toBe(recordHash(second));
  });

  test("changes with any value and with the order of array elements", () => {
    const base = recordHash({ external_id: "svc-1", calendar_external_ids: ["a", "b"], price_cents: 100 });
    expect(recordHash({ external_id: "svc-1", calendar_external_ids: ["b", "a"], price_cents: 100 })).not.toBe(base);
    expect(recordHash({ external_id: "svc-1", calendar_external_ids: ["a", "b"], price_cents: 101 })).not.toBe(base);
    expect(recordHash({ external_id: "svc-1", calendar_external_ids: ["a", "b"] })).not.toBe(base);
  });
});

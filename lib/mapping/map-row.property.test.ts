import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { sourceResources, type SourceResource } from "@/lib/source/source-rows";
import type { DateTimeStyle } from "@/lib/upstream/formats";
import { recordSchemasOf } from "@/lib/upstream/records";
import { mapRow, upstreamTypeOf } from "./map-row";
import { recordHash } from "./record-hash";
import { arbitraryContext, arbitraryRowOf } from "./testing/arbitrary-source-rows";

const styles: DateTimeStyle[] = ["spec", "rfc3339"];
const numRuns = 400;

function checkEveryRecordPassesItsSchema<R extends SourceResource>(resource: R): void {
  fc.assert(
    fc.property(arbitraryRowOf[resource], arbitraryContext, (row, location) => {
      for (const dateTimeStyle of styles) {
        const ctx = { ...location, dateTimeStyle };
        const mapped = mapRow(resource, row, ctx);
        expect(mapped.issues.filter((issue) => issue.code === "invalid_record")).toEqual([]);
        if (mapped.record !== null) {
          const result = recordSchemasOf(dateTimeStyle)[upstreamTypeOf[resource]].safeParse(mapped.record);
          expect(result.error?.issues ?? []).toEqual([]);
          expect(mapped.issues.every((issue) => issue.severity === "warning")).toBe(true);
        }
        // Deterministic: the same row and context give the same result and the same hash.
        const again = mapRow(resource, row, ctx);
        expect(again).toEqual(mapped);
        if (mapped.record !== null) expect(recordHash(again.record ?? {})).toBe(recordHash(mapped.record));
      }
    }),
    { numRuns },
  );
}

describe("mapping arbitrary messy rows", () => {
  test.each(sourceResources)("every emitted %s record passes its upstream schema in both date-time styles", (resource) => {
    checkEveryRecordPassesItsSchema(resource);
  });

  test("an appointment's local date is the date of the start it sends", () => {
    fc.assert(
      fc.property(arbitraryRowOf.appointments, arbitraryContext, (row, location) => {
        const mapped = mapRow("appointments", row, { ...location, dateTimeStyle: "spec" });
        if (mapped.record !== null) expect(mapped.localDate).toBe(mapped.record.start_at.slice(0, 10));
      }),
      { numRuns },
    );
  });

  test("issues never show a full e-mail address or more than two digits of a phone", () => {
    fc.assert(
      fc.property(arbitraryRowOf.customers, arbitraryContext, (row, location) => {
        const mapped = mapRow("customers", row, { ...location, dateTimeStyle: "spec" });
        for (const issue of mapped.issues) {
          if (issue.field === "email") {
            expect(issue.original).toMatch(/^[\s\S]{0,2}\*\*\*@?$/u);
            const email = (row.email ?? "").trim();
            // Only the first two characters are shown; an address whose rest is asterisks ("! *") looks like its own mask.
            if (Array.from(email).length > 2 && !/^[\s\S]{2}\**@?$/u.test(email)) expect(issue.original).not.toContain(email);
          }
          if (issue.field === "mobile_phone_number") expect(issue.original?.replace(/[^0-9]/g, "").length ?? 0).toBeLessThanOrEqual(2);
        }
      }),
      { numRuns: numRuns * 2 },
    );
  });
});

import { describe, expect, test } from "vitest";
import { mapAvailability } from "./map-availability";
import { availabilityRow, berlinContext } from "./testing/mapping-fixtures";

describe("mapAvailability", () => {
  test("maps a free slot to an opening of its calendar, naming its service and start instant beside the record", () => {
    expect(mapAvailability(availabilityRow({ staff_id: " staff-1 " }), berlinContext)).toEqual({
      sourceId: " staff-1 |svc-1|2026-06-16 14:00:00",
      record: { start_at: "2026-06-16T14:00:00Z+02:00", calendar_external_id: "staff-1" },
      issues: [],
      excludedByRule: null,
      serviceExternalId: "svc-1",
      startInstant: Date.parse("2026-06-16T12:00:00Z"),
    });
  });

  test("warns about a start skipped by a clock change and sends it moved forward", () => {
    const newYork = { ...berlinContext, timeZone: "America/New_York", country: "US" };
    const mapped = mapAvailability(availabilityRow({ starts_at: "2026-03-08 02:30:00" }), newYork);
    expect(mapped.record).toEqual({ start_at: "2026-03-08T03:30:00Z-04:00", calendar_external_id: "staff-1" });
    expect(mapped.issues).toEqual([
      {
        severity: "warning",
        field: "start_at",
        code: "nonexistent_local_time",
        reason: "does not exist in America/New_York (clock change); sent as 03:30",
        original: "2026-03-08 02:30:00",
      },
    ]);
  });

  test("excludes a slot without staff, service or start", () => {
    expect(mapAvailability({ staff_id: null, service_id: " ", starts_at: null }, berlinContext)).toEqual({
      sourceId: "| |",
      record: null,
      issues: [
        { severity: "error", field: "calendar_external_id", code: "missing_reference", reason: "is missing", original: null },
        { severity: "error", field: "service_external_id", code: "missing_reference", reason: "is missing", original: " " },
        { severity: "error", field: "start_at", code: "missing_date_time", reason: "is missing", original: null },
      ],
      excludedByRule: null,
      serviceExternalId: null,
      startInstant: null,
    });
  });

  test("excludes a slot without its service even when the record itself would be complete", () => {
    expect(mapAvailability(availabilityRow({ service_id: null }), berlinContext)).toMatchObject({ record: null, serviceExternalId: null });
  });
});

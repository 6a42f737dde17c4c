import { describe, expect, test } from "vitest";
import { mapAppointment } from "./map-appointment";
import { appointmentRow, berlinContext } from "./testing/mapping-fixtures";

describe("mapAppointment", () => {
  test("maps a booked appointment: local times with the location's offset, price in cents, its local date", () => {
    expect(mapAppointment(appointmentRow({ id: " apt-1 " }), berlinContext)).toEqual({
      sourceId: "apt-1",
      record: {
        external_id: "apt-1",
        start_at: "2026-06-20T09:30:00Z+02:00",
        end_at: "2026-06-20T10:15:00Z+02:00",
        contact_detail_external_id: "cust-1",
        service_external_id: "svc-1",
        calendar_external_id: "staff-1",
        price_cents: 2500,
      },
      issues: [],
      excludedByRule: null,
      localDate: "2026-06-20",
    });
  });

  test("writes plain RFC 3339 when the environment asks for it", () => {
    const mapped = mapAppointment(appointmentRow(), { ...berlinContext, dateTimeStyle: "rfc3339" });
    expect(mapped.record).toMatchObject({ start_at: "2026-06-20T09:30:00+02:00", end_at: "2026-06-20T10:15:00+02:00" });
  });

  test("names the local date of a late appointment whose UTC date is the next day", () => {
    const newYork = { ...berlinContext, timeZone: "America/New_York", country: "US" };
    const mapped = mapAppointment(appointmentRow({ starts_at: "2026-06-20 23:30:00", ends_at: "2026-06-21 00:15:00" }), newYork);
    expect(mapped).toMatchObject({
      record: { start_at: "2026-06-20T23:30:00Z-04:00", end_at: "2026-06-21T00:15:00Z-04:00" },
      localDate: "2026-06-20",
    });
  });

  test("completed appointments are sent; an unknown status is sent as booked, with a warning", () => {
    expect(mapAppointment(appointmentRow({ status: "Completed" }), berlinContext)).toMatchObject({ issues: [], excludedByRule: null });
    const mapped = mapAppointment(appointmentRow({ status: "tentative" }), berlinContext);
    expect(mapped.record).not.toBeNull();
    expect(mapped.issues).toEqual([
      { severity: "warning", field: "status", code: "unknown_status", reason: "is not a known status; treated as booked", original: "tentative" },
    ]);
  });

  test.each([
    ["Canceled", "canceled"],
    ["cancelled", "canceled"],
    ["NO_SHOW", "no-show"],
    ["no show", "no-show"],
    ["noshow", "no-show"],
  ])("leaves a %s appointment out by rule, without issues, naming its date", (status, rule) => {
    expect(mapAppointment(appointmentRow({ status, customer_id: null }), berlinContext)).toEqual({
      sourceId: "apt-1",
      record: null,
      issues: [],
      excludedByRule: rule,
      localDate: "2026-06-20",
    });
  });

  test("excludes an appointment without its id or customer", () => {
    const mapped = mapAppointment(appointmentRow({ id: " ", customer_id: null }), berlinContext);
    expect(mapped).toEqual({
      sourceId: "",
      record: null,
      issues: [
        { severity: "error", field: "external_id", code: "missing_id", reason: "is missing", original: " " },
        { severity: "error", field: "contact_detail_external_id", code: "missing_reference", reason: "is missing", original: null },
      ],
      excludedByRule: null,
      localDate: "2026-06-20",
    });
  });

  test("sends a visit without a service or calendar, with a warning for each (history is kept)", () => {
    const mapped = mapAppointment(appointmentRow({ service_id: "", staff_id: " " }), berlinContext);
    expect(mapped.record).not.toBeNull();
    expect(mapped.record).not.toHaveProperty("service_external_id");
    expect(mapped.record).not.toHaveProperty("calendar_external_id");
    expect(mapped.issues).toEqual([
      { severity: "warning", field: "service_external_id", code: "missing_reference", reason: "is missing: sent without it", original: "" },
      { severity: "warning", field: "calendar_external_id", code: "missing_reference", reason: "is missing: sent without it", original: " " },
    ]);
  });

  test("excludes an appointment without a readable start or end", () => {
    expect(mapAppointment(appointmentRow({ starts_at: null, ends_at: "20.06.2026 10:15" }), berlinContext)).toEqual({
      sourceId: "apt-1",
      record: null,
      issues: [
        { severity: "error", field: "start_at", code: "missing_date_time", reason: "is missing", original: null },
        {
          severity: "error",
          field: "end_at",
          code: "invalid_date_time",
          reason: "is not a local date-time YYYY-MM-DD HH:MM:SS",
          original: "20.06.2026 10:15",
        },
      ],
      excludedByRule: null,
      localDate: null,
    });
  });

  test("excludes an appointment that ends before it starts; one that ends as it starts is sent", () => {
    expect(mapAppointment(appointmentRow({ ends_at: "2026-06-20 09:29:59" }), berlinContext)).toEqual({
      sourceId: "apt-1",
      record: null,
      issues: [{ severity: "error", field: "end_at", code: "end_before_start", reason: "is before start_at", original: "2026-06-20 09:29:59" }],
      excludedByRule: null,
      localDate: "2026-06-20",
    });
    expect(mapAppointment(appointmentRow({ ends_at: "2026-06-20 09:30:00" }), berlinContext).record).not.toBeNull();
  });

  test("compares start and end as instants: a start moved forward by a clock change can pass its end", () => {
    // 02:30 does not exist on 2026-03-29 in Berlin and is sent as 03:30, after the 03:15 end.
    const mapped = mapAppointment(appointmentRow({ starts_at: "2026-03-29 02:30:00", ends_at: "2026-03-29 03:15:00" }), berlinContext);
    expect(mapped.record).toBeNull();
    expect(mapped.issues.map((issue) => issue.code)).toEqual(["nonexistent_local_time", "end_before_start"]);
  });

  test("sends an appointment across the autumn overlap with the earlier offset and a warning", () => {
    const mapped = mapAppointment(appointmentRow({ starts_at: "2026-10-25 02:30:00", ends_at: "2026-10-25 03:30:00" }), berlinContext);
    expect(mapped.record).toMatchObject({ start_at: "2026-10-25T02:30:00Z+02:00", end_at: "2026-10-25T03:30:00Z+01:00" });
    expect(mapped.issues).toEqual([
      {
        severity: "warning",
        field: "start_at",
        code: "ambiguous_local_time",
        reason: "occurs twice in Europe/Berlin (clock change); sent as the earlier one, UTC+02:00",
        original: "2026-10-25 02:30:00",
      },
    ]);
  });

  test("drops an unusable price with a warning; the appointment is still sent", () => {
    const mapped = mapAppointment(appointmentRow({ price: "abc" }), berlinContext);
    expect(mapped.record).not.toHaveProperty("price_cents");
    expect(mapped.issues).toEqual([
      { severity: "warning", field: "price_cents", code: "invalid_price", reason: "is not a decimal amount like 25.00", original: "abc" },
    ]);
  });
});

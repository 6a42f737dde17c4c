import { describe, expect, test } from "vitest";
import { normaliseAppointmentStatus } from "./appointment-status";

describe("normaliseAppointmentStatus", () => {
  test.each([
    ["booked", "booked"],
    ["Completed", "completed"],
    ["Canceled", "canceled"],
    ["cancelled", "canceled"],
    [" CANCELLED ", "canceled"],
    ["NO_SHOW", "no-show"],
    ["no show", "no-show"],
    ["noshow", "no-show"],
    ["No-Show", "no-show"],
  ])("reads %s as %s", (value, status) => {
    expect(normaliseAppointmentStatus(value)).toEqual({ value: status, issues: [] });
  });

  test("a missing status is booked, without an issue", () => {
    expect(normaliseAppointmentStatus(null)).toEqual({ value: "booked", issues: [] });
    expect(normaliseAppointmentStatus(" ")).toEqual({ value: "booked", issues: [] });
  });

  test("an unknown status is booked, with a warning", () => {
    expect(normaliseAppointmentStatus("tentative")).toEqual({
      value: "booked",
      issues: [
        { severity: "warning", field: "status", code: "unknown_status", reason: "is not a known status; treated as booked", original: "tentative" },
      ],
    });
  });
});

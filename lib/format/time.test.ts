import { describe, expect, it } from "vitest";
import { formatAbsoluteTime, formatFullTime, formatRelativeTime, formatWeekdayTime } from "./time";

const instant = "2026-11-24T09:52:03Z";

describe("the time formatter", () => {
  it("writes an instant in the location's own time zone", () => {
    expect(formatAbsoluteTime(instant, { timeZone: "Europe/Berlin" })).toBe("24 Nov 2026, 10:52");
    expect(formatAbsoluteTime(new Date(instant), { timeZone: "America/New_York" })).toBe("24 Nov 2026, 04:52");
  });

  it("writes it in UTC when the engineer chose UTC, whatever the location's zone", () => {
    expect(formatAbsoluteTime(instant, { timeZone: "Europe/Berlin", utc: true })).toBe("24 Nov 2026, 09:52");
    expect(formatFullTime(instant, { timeZone: "Europe/Berlin", utc: true })).toBe("Tue 24 Nov 2026, 09:52:03 +00:00 (UTC)");
  });

  it("gives the whole instant with its zone for the tooltip", () => {
    expect(formatFullTime(instant, { timeZone: "Europe/Berlin" })).toBe("Tue 24 Nov 2026, 10:52:03 +01:00 (Europe/Berlin)");
  });

  it("writes a weekly time as weekday and 24-hour clock, across a daylight-saving change", () => {
    expect(formatWeekdayTime(instant, { timeZone: "Europe/Berlin" })).toBe("Tue 10:52");
    expect(formatWeekdayTime("2026-06-01T08:00:00Z", { timeZone: "Europe/Berlin" })).toBe("Mon 10:00");
  });

  it("says how long ago or how soon, and 'just now' within a minute", () => {
    const now = Date.parse(instant);
    expect(formatRelativeTime("2026-11-24T09:52:30Z", now)).toBe("just now");
    expect(formatRelativeTime("2026-11-24T09:47:03Z", now)).toBe("5 minutes ago");
    expect(formatRelativeTime("2026-11-24T12:52:03Z", now)).toBe("in 3 hours");
    expect(formatRelativeTime("2026-11-23T09:52:03Z", now)).toBe("1 day ago");
  });
});

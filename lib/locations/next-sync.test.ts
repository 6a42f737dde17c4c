import { describe, expect, it } from "vitest";
import { nextScheduledSync } from "./next-sync";

describe("nextScheduledSync", () => {
  it("is later today when the local time has not passed yet", () => {
    expect(nextScheduledSync("10:30", "Europe/Berlin", new Date("2026-06-01T06:00:00Z")).toISOString()).toBe("2026-06-01T08:30:00.000Z");
  });

  it("is tomorrow when today's time has passed, in the location's zone, not the server's", () => {
    expect(nextScheduledSync("10:30", "America/New_York", new Date("2026-06-01T15:00:00Z")).toISOString()).toBe("2026-06-02T14:30:00.000Z");
  });

  it("keeps the local wall time across a DST change", () => {
    // Berlin moves to summer time on 2026-03-29: 10:00 local is 09:00Z before and 08:00Z after.
    expect(nextScheduledSync("10:00", "Europe/Berlin", new Date("2026-03-28T12:00:00Z")).toISOString()).toBe("2026-03-29T08:00:00.000Z");
  });

  it("never answers the current instant", () => {
    const now = new Date("2026-06-01T08:30:00Z");
    expect(nextScheduledSync("10:30", "Europe/Berlin", now).toISOString()).toBe("2026-06-02T08:30:00.000Z");
  });

  it("is tomorrow once today's scheduled session exists, though the sync time was moved later since", () => {
    // Today's 10:00 run happened; the time is now 15:00 Berlin, and it is 12:00 there.
    const now = new Date("2026-06-15T10:00:00Z");
    expect(nextScheduledSync("15:00", "Europe/Berlin", now, "2026-06-15").toISOString()).toBe("2026-06-16T13:00:00.000Z");
    expect(nextScheduledSync("15:00", "Europe/Berlin", now, "2026-06-14").toISOString()).toBe("2026-06-15T13:00:00.000Z");
    expect(nextScheduledSync("15:00", "Europe/Berlin", now, null).toISOString()).toBe("2026-06-15T13:00:00.000Z");
  });
});

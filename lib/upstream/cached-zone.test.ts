import { DateTime, IANAZone } from "luxon";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cachedZone } from "./cached-zone";

describe("cachedZone", () => {
  it("answers exactly what luxon's own zone answers, at any instant and in every offset format", () => {
    const zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Apia", "America/St_Johns"];
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2100, 0, 1) }), (name, ts) => {
        const reference = IANAZone.create(name);
        const zone = cachedZone(name);
        expect(zone.offset(ts)).toBe(reference.offset(ts));
        for (const format of ["short", "narrow", "techie"] as const) expect(zone.formatOffset(ts, format)).toBe(reference.formatOffset(ts, format));
      }),
      { numRuns: 3000 },
    );
  });

  it("keeps the instants around a DST change exact", () => {
    const zone = cachedZone("Europe/Berlin");
    // 2026-03-29 01:00 UTC: Berlin goes from +01:00 to +02:00.
    const change = Date.UTC(2026, 2, 29, 1, 0, 0);
    expect(zone.offset(change - 1)).toBe(60);
    expect(zone.offset(change)).toBe(120);
    expect(DateTime.fromISO("2026-03-29T02:30:00", { zone }).toISO()).toBe(
      DateTime.fromISO("2026-03-29T02:30:00", { zone: "Europe/Berlin" }).toISO(),
    );
  });
});

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

  it("is exact around every offset change since 2000, where spans are filled two hours at a time", () => {
    const zones = ["Europe/Berlin", "Africa/Casablanca", "Australia/Lord_Howe", "America/Havana", "Asia/Gaza", "Antarctica/Troll", "Pacific/Apia"];
    const day = 24 * 60 * 60 * 1000;
    for (const name of zones) {
      const reference = IANAZone.create(name);
      const zone = cachedZone(name);
      let checked = 0;
      for (let ts = Date.UTC(2000, 0, 1); ts < Date.UTC(2030, 0, 1); ts += day) {
        if (reference.offset(ts) === reference.offset(ts + day)) continue;
        // The change lies in this day: find its minute, then ask around it as the mapping would.
        let [low, high] = [ts, ts + day];
        while (high - low > 60_000) {
          const middle = low + Math.floor((high - low) / 2);
          if (reference.offset(middle) === reference.offset(ts)) low = middle;
          else high = middle;
        }
        for (const delta of [-7_200_000, -3_600_000, -900_000, -60_000, -1, 0, 1, 60_000, 900_000, 3_600_000, 7_200_000]) {
          expect(zone.offset(high + delta), `${name} ${new Date(high + delta).toISOString()}`).toBe(reference.offset(high + delta));
        }
        checked += 1;
      }
      expect(checked, name).toBeGreaterThan(0);
    }
  });
});

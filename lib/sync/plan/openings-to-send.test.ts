import { describe, expect, it } from "vitest";
import { openingsItems, type OpeningSummary } from "./openings-to-send";

const opening = (service: string, start: string, hash = "h"): OpeningSummary => ({ service, key: `${service}|cal|${start}`, hash });
const held = new Set(["sv1", "sv2", "sv3"]);

describe("the openings imports of a session", () => {
  it("sends only the services whose openings differ from what the upstream accepted", () => {
    const accepted = [opening("sv1", "10:00"), opening("sv2", "10:00"), opening("sv3", "10:00")];
    const current = [
      opening("sv1", "10:00"), // the same: not sent
      opening("sv2", "10:00", "h2"), // changed
      opening("sv3", "10:00"),
      opening("sv3", "11:00"), // one more
    ];
    expect(openingsItems({ current, accepted, heldServices: held, full: false })).toEqual(["service sv2", "service sv3"]);
  });

  it("empties a service whose openings are gone, and sends one that has openings for the first time", () => {
    const items = openingsItems({ current: [opening("sv2", "09:00")], accepted: [opening("sv1", "10:00")], heldServices: held, full: false });
    expect(items).toEqual(["service sv1", "service sv2"]);
  });

  it("sends nothing when nothing changed, and every service with openings now or before in a full resync", () => {
    const accepted = [opening("sv1", "10:00"), opening("sv2", "10:00")];
    expect(openingsItems({ current: accepted, accepted, heldServices: held, full: false })).toEqual([]);
    expect(openingsItems({ current: [opening("sv1", "10:00")], accepted, heldServices: held, full: true })).toEqual(["service sv1", "service sv2"]);
  });

  it("never names a service the upstream does not hold", () => {
    expect(openingsItems({ current: [opening("sv9", "10:00"), opening("", "10:00")], accepted: [], heldServices: held, full: true })).toEqual([]);
  });
});

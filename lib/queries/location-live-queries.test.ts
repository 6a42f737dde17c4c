import { describe, expect, it } from "vitest";
import type { LocationConnection } from "@/lib/locations/location-response";
import type { SessionHistoryItem } from "@/lib/sync/read-session-history";
import type { SessionView } from "@/lib/sync/session-view";
import { endedBetweenReads, locationLiveStateOf } from "./location-live-queries";

// Only the fields the rule reads: the location is passed through untouched.
const location = { id: "l1" } as LocationConnection;
const latest = { id: "s1", status: "running", steps: [] } as unknown as SessionHistoryItem;
const viewWith = (status: string) =>
  ({
    session: { id: "s1", status, error: null, upstreamOpen: true, startedAt: "2026-11-25T04:00:00.000Z", finishedAt: null },
    steps: [{ name: "calendars", status: "succeeded", recordsInvalid: 0, recordsExcluded: 0 }],
  }) as unknown as SessionView;

describe("the location page's live state", () => {
  it("shows a running session as in flight, with the status and steps of its view", () => {
    const running = viewWith("running");
    const state = locationLiveStateOf(location, latest, running);
    expect(state.open).toBe(running);
    expect(state.latest).toMatchObject({ status: "running", steps: [{ name: "calendars", status: "succeeded" }] });
    expect(endedBetweenReads(running)).toBe(false);
  });

  it("shows a session that ended between the history and its view as ended, and nowhere as in flight", () => {
    const cancelled = viewWith("cancelled");
    expect(endedBetweenReads(cancelled)).toBe(true);
    const state = locationLiveStateOf(location, latest, cancelled);
    expect(state.open).toBeNull();
    expect(state.latest).toMatchObject({ id: "s1", status: "cancelled" });
  });
});

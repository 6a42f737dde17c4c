import { describe, expect, it } from "vitest";
import { ownerSyncOutcome } from "./owner-sync-outcome";

const at = new Date("2026-05-31T08:04:00Z");

describe("ownerSyncOutcome (the owner's words for the last sync)", () => {
  it("tells a success apart from one that left records out", () => {
    expect(ownerSyncOutcome({ status: "succeeded", endedAt: at, notSent: 0 }, true)).toMatchObject({ label: "Succeeded", tone: "success" });
    expect(ownerSyncOutcome({ status: "succeeded", endedAt: at, notSent: 365 }, true)).toMatchObject({
      label: "Succeeded with 365 not sent",
      tone: "warning",
      detail: expect.stringContaining("365 records were not sent"),
    });
  });

  it("says what happens next after a failure or before the first sync, with no operator words", () => {
    const outcomes = [
      ownerSyncOutcome({ status: "failed", endedAt: at, notSent: 0 }, true),
      ownerSyncOutcome({ status: "cancelled", endedAt: at, notSent: 0 }, true),
      ownerSyncOutcome({ status: "running", endedAt: at, notSent: 0 }, true),
      ownerSyncOutcome(null, false),
      ownerSyncOutcome(null, true),
    ];
    expect(outcomes.map((outcome) => outcome.label)).toEqual(["Failed", "Stopped", "Syncing now", "Not synced yet", "Not synced yet"]);
    expect(outcomes[0]!.detail).toContain("The next sync tries again");
    expect(outcomes[3]!.detail).toContain("once the location is connected");
    for (const { label, detail } of outcomes) expect(`${label} ${detail}`).not.toMatch(/session|step|upstream|token/i);
  });
});

import { describe, expect, it } from "vitest";
import type { PreviewCounts } from "@/db/schema";
import { displayedPreview } from "./displayed-preview";
import type { PreviewRun } from "./read-preview";

const counted = { sourceRows: 1, valid: 1, warnings: 0, errors: 0, excludedByRule: 0, new: 1, changed: 0, unchanged: 0, removed: 0 };
const countsOf = (...types: string[]): PreviewCounts => Object.fromEntries(types.map((type) => [type, counted]));

function run(overrides: Partial<PreviewRun>): PreviewRun {
  return {
    id: "00000000-0000-0000-0000-000000000001",
    locationId: "00000000-0000-0000-0000-000000000002",
    status: "running",
    sourceFingerprint: null,
    mode: "full",
    sourceReadAt: null,
    storeEpoch: null,
    mappingBasis: null,
    appointmentsUntil: null,
    requestedByEmail: null,
    rebuild: false,
    progress: {},
    counts: null,
    countedAt: null,
    checkedAt: null,
    error: null,
    leaseExpiresAt: null,
    fencingToken: 0,
    createdAt: new Date("2026-12-01T10:00:00Z"),
    startedAt: null,
    finishedAt: null,
    ...overrides,
  };
}

describe("what the preview page shows", () => {
  it("nothing before a first run has read a type", () => {
    expect(displayedPreview({ shown: null, active: run({ progress: { calendars: { rows: 3, done: false } } }) })).toEqual({
      run: null,
      checked: null,
      storing: false,
      types: [],
    });
  });

  it("a first run's types read so far, in the session's order, provisional", () => {
    const active = run({
      progress: { contact_details: { rows: 9, done: true }, calendars: { rows: 2, done: true }, services: { rows: 0, done: false } },
    });
    expect(displayedPreview({ shown: null, active })).toEqual({
      run: active,
      checked: null,
      storing: false,
      types: ["calendars", "contact_details"],
    });
  });

  it("a first run's counts and issues once complete, while it stores the records a sync sends", () => {
    const active = run({ checkedAt: new Date(), counts: countsOf("appointments", "calendars", "openings") });
    expect(displayedPreview({ shown: null, active })).toEqual({
      run: active,
      checked: active,
      storing: true,
      types: ["calendars", "appointments", "openings"],
    });
  });

  it("the shown run, whatever run is in flight", () => {
    const shown = run({ status: "succeeded", counts: countsOf("calendars", "services") });
    const active = run({ id: "00000000-0000-0000-0000-000000000003", checkedAt: new Date(), counts: countsOf("calendars") });
    expect(displayedPreview({ shown, active })).toEqual({ run: shown, checked: shown, storing: false, types: ["calendars", "services"] });
  });
});

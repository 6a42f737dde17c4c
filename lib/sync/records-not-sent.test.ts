import { describe, expect, it } from "vitest";
import { notSentOutcomeLabel, recordsNotSentOf } from "./records-not-sent";

describe("records not sent by a session", () => {
  const steps = [
    { name: "services", recordsInvalid: 1, recordsExcluded: 0 },
    { name: "contact_details", recordsInvalid: 0, recordsExcluded: 0 },
    { name: "appointments", recordsInvalid: 300, recordsExcluded: 37 },
  ];

  it("adds up the invalid and excluded records of the steps that left some out", () => {
    expect(recordsNotSentOf(steps)).toEqual({
      total: 338,
      invalid: 301,
      excluded: 37,
      steps: [
        { name: "services", invalid: 1, excluded: 0 },
        { name: "appointments", invalid: 300, excluded: 37 },
      ],
    });
  });

  it("names a success that left records out, and nothing else", () => {
    expect(notSentOutcomeLabel("succeeded", recordsNotSentOf(steps))).toBe("Succeeded with 338 not sent");
    expect(notSentOutcomeLabel("succeeded", 1200)).toBe("Succeeded with 1,200 not sent");
    expect(notSentOutcomeLabel("succeeded", 0)).toBeNull();
    expect(notSentOutcomeLabel("failed", 338)).toBeNull();
    expect(notSentOutcomeLabel("running", 338)).toBeNull();
  });
});

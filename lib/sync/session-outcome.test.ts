import { expect, test } from "vitest";
import { failureAttentionReason } from "./session-outcome";

test("a failed session's attention reason ends each sentence once, whether or not its error ended its own", () => {
  expect(failureAttentionReason("services", "batch_sync_services answered 503", true)).toBe(
    "The last sync failed at services: batch_sync_services answered 503. Resume it or close the upstream session.",
  );
  expect(failureAttentionReason(null, "The Marketing Automation Service moved to another address. ", false)).toBe(
    "The last sync failed before it started: The Marketing Automation Service moved to another address. Resume it.",
  );
  expect(failureAttentionReason("appointments", "Was the source reachable?", false)).toBe(
    "The last sync failed at appointments: Was the source reachable? Resume it.",
  );
});

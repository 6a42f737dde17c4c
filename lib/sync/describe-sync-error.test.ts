import { describe, expect, it } from "vitest";
import { UpstreamUnavailableError, UpstreamUploadAddressError } from "@/lib/upstream/errors";
import { describeSyncError, isRetryableStepError } from "./describe-sync-error";

describe("describeSyncError", () => {
  it("counts attempts in plain English", () => {
    const once = new UpstreamUnavailableError("POST /v1/x answered 503", { status: 503, attempts: 1 });
    const thrice = new UpstreamUnavailableError("POST /v1/x answered 503", { status: 503, attempts: 3 });
    expect(describeSyncError(once)).toBe("POST /v1/x answered 503 (HTTP 503) after 1 attempt");
    expect(describeSyncError(thrice)).toBe("POST /v1/x answered 503 (HTTP 503) after 3 attempts");
  });

  it("shows a refused upload address as it is, and the engine does not retry it", () => {
    const refusal = new UpstreamUploadAddressError(
      "The upload address host evil.example is not one of this environment's upload hosts (Settings → Environments); nothing was sent.",
      { attempts: 1 },
    );
    expect(describeSyncError(refusal)).toBe(refusal.message);
    expect(isRetryableStepError(refusal)).toBe(false);
  });
});

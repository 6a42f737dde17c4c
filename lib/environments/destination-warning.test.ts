import { describe, expect, it } from "vitest";
import { productionDestinationWarning } from "./destination-warning";

describe("the production destination warning", () => {
  it("warns when production points at this machine or uses plain http", () => {
    expect(productionDestinationWarning("production", "http://127.0.0.1:3000/sandbox/api")).toMatch(/address on this machine/);
    expect(productionDestinationWarning("production", "https://localhost:8443")).toMatch(/address on this machine/);
    expect(productionDestinationWarning("production", "http://api.example.com")).toMatch(/plain http/);
  });

  it("says nothing of an https address, of staging, or of an address not yet typed in full", () => {
    expect(productionDestinationWarning("production", "https://api.example.com/v1")).toBeNull();
    expect(productionDestinationWarning("staging", "http://127.0.0.1:3000/sandbox/api")).toBeNull();
    expect(productionDestinationWarning("production", "api.exa")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { isCrossOriginWrite } from "./same-origin";

const headers = (values: Record<string, string>) => new Headers(values);

describe("isCrossOriginWrite", () => {
  it("refuses a write whose Origin names another site", () => {
    expect(isCrossOriginWrite("POST", headers({ host: "sync.example.test", origin: "https://evil.test" }))).toBe(true);
    expect(isCrossOriginWrite("DELETE", headers({ host: "sync.example.test", origin: "null" }))).toBe(true);
  });
  it("refuses a cross-site write without Origin when the browser says so", () => {
    expect(isCrossOriginWrite("POST", headers({ host: "sync.example.test", "sec-fetch-site": "cross-site" }))).toBe(true);
  });
  it("allows same-origin writes, reads, and clients without browser headers", () => {
    expect(isCrossOriginWrite("POST", headers({ host: "sync.example.test", origin: "https://sync.example.test" }))).toBe(false);
    expect(isCrossOriginWrite("GET", headers({ host: "sync.example.test", origin: "https://evil.test" }))).toBe(false);
    expect(isCrossOriginWrite("PUT", headers({ host: "sync.example.test" }))).toBe(false);
  });
});

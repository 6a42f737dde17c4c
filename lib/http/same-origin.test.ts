import { describe, expect, it } from "vitest";
import { isCrossOriginWrite } from "./same-origin";

const headers = (values: Record<string, string>) => new Headers(values);
const direct = { trustProxy: false };
const behindProxy = { trustProxy: true };

describe("isCrossOriginWrite", () => {
  it("refuses a write whose Origin names another site", () => {
    expect(isCrossOriginWrite("POST", headers({ host: "sync.example.test", origin: "https://evil.test" }), direct)).toBe(true);
    expect(isCrossOriginWrite("DELETE", headers({ host: "sync.example.test", origin: "null" }), direct)).toBe(true);
  });
  it("refuses a cross-site write without Origin when the browser says so", () => {
    expect(isCrossOriginWrite("POST", headers({ host: "sync.example.test", "sec-fetch-site": "cross-site" }), direct)).toBe(true);
  });
  it("allows same-origin writes, reads, and clients without browser headers", () => {
    expect(isCrossOriginWrite("POST", headers({ host: "sync.example.test", origin: "https://sync.example.test" }), direct)).toBe(false);
    expect(isCrossOriginWrite("GET", headers({ host: "sync.example.test", origin: "https://evil.test" }), direct)).toBe(false);
    expect(isCrossOriginWrite("PUT", headers({ host: "sync.example.test" }), direct)).toBe(false);
  });
  it("ignores X-Forwarded-Host without TRUST_PROXY: anyone can send it", () => {
    const forged = headers({ host: "sync.example.test", "x-forwarded-host": "evil.test", origin: "https://evil.test" });
    expect(isCrossOriginWrite("POST", forged, direct)).toBe(true);
  });
  it("takes the host from our proxy's X-Forwarded-Host with TRUST_PROXY", () => {
    const proxied = headers({ host: "10.0.0.5:3000", "x-forwarded-host": "sync.example.test", origin: "https://sync.example.test" });
    expect(isCrossOriginWrite("POST", proxied, behindProxy)).toBe(false);
    expect(isCrossOriginWrite("POST", proxied, direct)).toBe(true);
    // A proxy appends: the last value is the one it set, earlier ones came from the client.
    const appended = headers({ host: "10.0.0.5:3000", "x-forwarded-host": "evil.test, sync.example.test", origin: "https://evil.test" });
    expect(isCrossOriginWrite("POST", appended, behindProxy)).toBe(true);
  });
});

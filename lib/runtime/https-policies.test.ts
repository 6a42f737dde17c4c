import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { applyRequestPolicies } from "./request-policies";

// The policies in front of Next.js, on a real server whose handler sets cookies every way Node allows.
let server: Server;
let origin: string;
let trustProxy = false;
const savedOrigin = process.env.NEXTAUTH_URL;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (!applyRequestPolicies(request, response, { dev: false, trustProxy })) return;
    if (request.url === "/appended") {
      response.appendHeader("set-cookie", "next-auth.session-token=abc; Path=/; HttpOnly; SameSite=Lax");
      response.end("ok");
      return;
    }
    response
      .writeHead(200, { "set-cookie": ["next-auth.csrf-token=def; Path=/", "already=1; Path=/; Secure"], "content-type": "text/plain" })
      .end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  trustProxy = false;
  process.env.NEXTAUTH_URL = savedOrigin;
});

async function get(headers: Record<string, string> = {}) {
  const [appended, written] = await Promise.all([fetch(`${origin}/appended`, { headers }), fetch(`${origin}/written`, { headers })]);
  return { hsts: written.headers.get("strict-transport-security"), cookies: [...appended.headers.getSetCookie(), ...written.headers.getSetCookie()] };
}

describe("served over https", () => {
  it("behind a trusted proxy that says https: HSTS, and every cookie Secure", async () => {
    process.env.NEXTAUTH_URL = "http://127.0.0.1:3000";
    trustProxy = true;
    const { hsts, cookies } = await get({ "x-forwarded-proto": "https" });
    expect(hsts).toBe("max-age=63072000; includeSubDomains");
    expect(cookies).toHaveLength(3);
    for (const cookie of cookies) expect(cookie).toMatch(/;\s*Secure(;|$)/i);
    expect(cookies.find((cookie) => cookie.startsWith("already="))).toBe("already=1; Path=/; Secure");
  });

  it("when the public origin is https, whatever the hop in front says", async () => {
    process.env.NEXTAUTH_URL = "https://sync.example.com";
    const { hsts, cookies } = await get();
    expect(hsts).toBe("max-age=63072000; includeSubDomains");
    for (const cookie of cookies) expect(cookie).toMatch(/;\s*Secure(;|$)/i);
  });

  it("not over plain http, and X-Forwarded-Proto counts only from a trusted proxy", async () => {
    process.env.NEXTAUTH_URL = "http://127.0.0.1:3000";
    for (const headers of [{}, { "x-forwarded-proto": "https" }] as Record<string, string>[]) {
      const { hsts, cookies } = await get(headers);
      expect(hsts).toBeNull();
      expect(cookies.filter((cookie) => !cookie.startsWith("already=")).every((cookie) => !/secure/i.test(cookie))).toBe(true);
    }
  });
});

import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "@/lib/http/client-address";
import { applyRequestPolicies } from "./request-policies";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A server with the policies in front of a stand-in for Next.js that echoes the headers it was given (or answers a bare 405 on /api/bare). */
async function serverWith(trustProxy: boolean): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    if (!applyRequestPolicies(request, response, { dev: false, trustProxy })) return;
    if (request.url === "/api/bare") {
      response.statusCode = 405;
      response.end();
      return;
    }
    // As Next's compression layer does: the head is written before the (empty) body ends.
    if (request.url === "/api/bare-head-first") {
      response.writeHead(405);
      response.end();
      return;
    }
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(request.headers));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function send(port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: "127.0.0.1", port, method, path, headers }, (incoming) => {
      let body = "";
      incoming.on("data", (chunk) => (body += chunk));
      incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

let direct: { server: Server; port: number };
let proxied: { server: Server; port: number };
beforeAll(async () => {
  [direct, proxied] = await Promise.all([serverWith(false), serverWith(true)]);
});
afterAll(() => {
  direct.server.close();
  proxied.server.close();
});

describe("applyRequestPolicies", () => {
  it("answers TRACE and other methods nothing serves with 405 problem+json", async () => {
    for (const method of ["TRACE", "PROPFIND", "MKCOL"]) {
      for (const path of ["/api/users", "/locations"]) {
        const answer = await send(direct.port, method, path);
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(answer.headers["content-type"]).toBe("application/problem+json");
        expect(JSON.parse(answer.body)).toMatchObject({ status: 405, code: "METHOD_NOT_ALLOWED" });
      }
    }
  });

  it("turns Next's bare 405 for a method a route does not export into problem+json", async () => {
    for (const path of ["/api/bare", "/api/bare-head-first"]) {
      const answer = await send(direct.port, "DELETE", path);
      expect(answer.status).toBe(405);
      expect(answer.headers["content-type"]).toBe("application/problem+json");
      expect(JSON.parse(answer.body)).toMatchObject({ detail: "DELETE is not supported here." });
    }
  });

  it("answers a path that is not valid percent-encoded UTF-8 with 400 problem+json", async () => {
    for (const path of ["/api/locations/%", "/api/users/%E0%A4%A", "/api/locations/%ED%A0%80", "/locations/%zz/edit"]) {
      const answer = await send(direct.port, "GET", path);
      expect(answer.status, path).toBe(400);
      expect(answer.headers["content-type"]).toBe("application/problem+json");
    }
    expect((await send(direct.port, "GET", "/api/locations/caf%C3%A9")).status).toBe(200);
  });

  it("drops X-Forwarded-* without TRUST_PROXY, so the client address and host are the connection's", async () => {
    const answer = await send(direct.port, "GET", "/locations", {
      "x-forwarded-for": "203.0.113.9",
      "x-forwarded-host": "evil.test",
      "x-forwarded-proto": "https",
      forwarded: "for=203.0.113.9",
    });
    const seen = JSON.parse(answer.body) as Record<string, string>;
    expect(seen[CLIENT_ADDRESS_HEADER]).toBe("127.0.0.1");
    expect(seen).not.toHaveProperty("x-forwarded-host");
    expect(seen).not.toHaveProperty("x-forwarded-proto");
    expect(seen).not.toHaveProperty("x-forwarded-for");
    expect(seen).not.toHaveProperty("forwarded");
  });

  it("refuses a cross-origin write that claims our host in X-Forwarded-Host without TRUST_PROXY", async () => {
    const answer = await send(direct.port, "POST", "/api/users", { origin: "https://evil.test", "x-forwarded-host": "evil.test" });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ code: "CROSS_ORIGIN" });
  });

  it("behind our proxy (TRUST_PROXY), takes the address our proxy appended, not one the client sent", async () => {
    const answer = await send(proxied.port, "GET", "/locations", {
      "x-forwarded-for": "198.51.100.1, 203.0.113.9",
      "x-forwarded-host": "sync.example.test",
    });
    const seen = JSON.parse(answer.body) as Record<string, string>;
    expect(seen[CLIENT_ADDRESS_HEADER]).toBe("203.0.113.9");
    expect(seen["x-forwarded-host"]).toBe("sync.example.test");
    const write = await send(proxied.port, "POST", "/api/users", { origin: "https://sync.example.test", "x-forwarded-host": "sync.example.test" });
    expect(write.status).toBe(200);
  });
});

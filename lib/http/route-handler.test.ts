import { describe, expect, it } from "vitest";
import { z } from "zod";
import { publicRouteHandler } from "./route-handler";
import { DEFAULT_MAX_BODY_BYTES } from "./request-body";

const Body = z.object({ name: z.string() });
const received: unknown[] = [];
const handler = publicRouteHandler({ action: "public", body: Body }, async ({ body }) => {
  received.push(body);
  return { ok: true };
});
const noParams = { params: Promise.resolve({}) };

/** A body of `total` bytes produced on demand, counting how much the server pulled. */
function meteredBody(total: number) {
  const meter = { pulled: 0 };
  const chunk = new Uint8Array(16 * 1024).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (meter.pulled >= total) return controller.close();
      meter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, meter };
}

const post = (body: BodyInit, headers: Record<string, string> = { "content-type": "application/json" }) =>
  handler(new Request("http://app.test/api/thing", { method: "POST", headers, body, duplex: "half" } as RequestInit), noParams);

describe("routeHandler: request bodies", () => {
  it("refuses a 50 MB streamed body with 413 after reading no more than the limit", async () => {
    const { stream, meter } = meteredBody(50 * 1024 * 1024);
    const response = await post(stream);
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ code: "BODY_TOO_LARGE" });
    // The stream was cancelled at the limit (plus what the stream had queued), not read to its end.
    expect(meter.pulled).toBeLessThan(DEFAULT_MAX_BODY_BYTES + 64 * 1024);
    expect(received).toEqual([]);
  });

  it("refuses a declared Content-Length over the limit without reading the body", async () => {
    const { stream, meter } = meteredBody(50 * 1024 * 1024);
    const response = await post(stream, { "content-type": "application/json", "content-length": String(50 * 1024 * 1024) });
    expect(response.status).toBe(413);
    expect(meter.pulled).toBeLessThanOrEqual(16 * 1024);
  });

  it("accepts a body within the limit", async () => {
    const response = await post(JSON.stringify({ name: "Salon" }));
    expect(response.status).toBe(200);
    expect(received.at(-1)).toEqual({ name: "Salon" });
  });

  it("takes a larger body only where the route declares it", async () => {
    const roomy = publicRouteHandler({ action: "public", body: Body, maxBodyBytes: 256 * 1024 }, async () => ({ ok: true }));
    const name = "x".repeat(100 * 1024);
    const request = (route: typeof roomy) =>
      route(
        new Request("http://app.test/api/thing", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }) }),
        noParams,
      );
    expect((await request(roomy)).status).toBe(200);
    expect((await request(handler)).status).toBe(413);
  });

  it("refuses anything but application/json with 415, text/plain; application/json included", async () => {
    for (const type of [
      "text/plain; application/json",
      "text/plain",
      "application/x-www-form-urlencoded",
      "application/jsonx",
      "multipart/form-data; boundary=application/json",
    ]) {
      const response = await post(JSON.stringify({ name: "Salon" }), { "content-type": type });
      expect(response.status, type).toBe(415);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
    for (const type of ["application/json", "application/json; charset=utf-8", "Application/JSON ; charset=UTF-8"]) {
      expect((await post(JSON.stringify({ name: "Salon" }), { "content-type": type })).status, type).toBe(200);
    }
  });

  it("refuses NUL and lone surrogates anywhere in the body, query or params with 422 naming the field, before the handler runs", async () => {
    const before = received.length;
    for (const body of [
      '{"name":"a\\u0000b"}',
      '{"name":"a\\ud800"}',
      '{"name":"ok","extra":{"deep":["\\u0000"]}}',
      '{"name\\u0000":"x","name":"ok"}',
    ]) {
      const response = await post(body);
      expect(response.status, body).toBe(422);
      expect((await response.json()).detail).toContain("must not contain control, invisible or text-direction characters");
    }
    const withQuery = await handler(
      new Request("http://app.test/api/thing?q=%00", { method: "POST", headers: { "content-type": "application/json" }, body: '{"name":"ok"}' }),
      noParams,
    );
    expect(withQuery.status).toBe(422);
    expect((await withQuery.json()).errors).toEqual([{ field: "q", reason: expect.stringContaining("U+0000") }]);
    const withParam = await handler(
      new Request("http://app.test/api/thing", { method: "POST", headers: { "content-type": "application/json" }, body: '{"name":"ok"}' }),
      { params: Promise.resolve({ id: "\u0000" }) },
    );
    expect(withParam.status).toBe(422);
    expect(received.length).toBe(before);
  });

  it("answers a body that is not UTF-8 JSON with 422", async () => {
    expect((await post(new Uint8Array([0x7b, 0xff, 0x7d]))).status).toBe(422);
    expect((await post("{not json")).status).toBe(422);
  });

  it("limits a body the handler reads itself, for routes without a body schema", async () => {
    const own = publicRouteHandler({ action: "public" }, async ({ request }) => ({ length: (await request.text()).length }));
    const { stream } = meteredBody(50 * 1024 * 1024);
    const refused = await own(new Request("http://app.test/api/thing", { method: "POST", body: stream, duplex: "half" } as RequestInit), noParams);
    expect(refused.status).toBe(413);
    const accepted = await own(new Request("http://app.test/api/thing", { method: "POST", body: '{"rebuild":true}' }), noParams);
    expect(await accepted.json()).toEqual({ length: 16 });
  });
});

describe("routeHandler: unexpected errors", () => {
  it("answers a generic 500 and logs only the error's class and code, never its message", async () => {
    const failing = publicRouteHandler({ action: "public" }, async () => {
      throw Object.assign(new Error("Failed query: select * from users where email = $1\nparams: alice@example.test"), { code: "22021" });
    });
    const lines: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
    try {
      const response = await failing(new Request("http://app.test/api/thing"), noParams);
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).not.toContain("alice");
      expect(text).not.toContain("select");
    } finally {
      console.error = original;
    }
    expect(lines.join("\n")).toContain("Error 22021");
    expect(lines.join("\n")).not.toContain("alice@example.test");
    expect(lines.join("\n")).not.toContain("Failed query");
  });
});

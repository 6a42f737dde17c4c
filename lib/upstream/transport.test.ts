import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createUpstreamClient, type UpstreamClientOptions } from "./client";
import {
  UpstreamAuthenticationError,
  UpstreamCancelledError,
  UpstreamInvalidResponseError,
  UpstreamRejectedError,
  UpstreamUnavailableError,
  UpstreamUploadAddressError,
  UpstreamUploadError,
} from "./errors";
import type { AttemptReport } from "./http";
import { computeBackoffDelay, defaultRetryPolicy, parseRetryAfter } from "./retry";
import { UploadHosts } from "@/lib/environments/environment-inputs";
import { checkUploadAddress } from "./upload";

// A scripted server for pure transport behaviour (redirects, timeouts, Retry-After); the API contract is tested against the sandbox.
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Reply = (request: Seen, response: http.ServerResponse) => void;

let server: http.Server;
let origin: string;
let replies: Reply[] = [];
let seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request = { method: incoming.method ?? "", url: incoming.url ?? "", headers: incoming.headers, body: Buffer.concat(chunks).toString() };
      seen.push(request);
      const reply = replies.shift() ?? ((_, response) => response.writeHead(500).end("no scripted reply"));
      reply(request, outgoing);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  replies = [];
  seen = [];
});

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (_, response) =>
    response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));

const apiKey = "test-api-key-0001";
const sleeps: number[] = [];
function makeClient(overrides: Partial<UpstreamClientOptions> = {}) {
  const attempts: AttemptReport[] = [];
  sleeps.length = 0;
  const client = createUpstreamClient({
    baseUrl: origin,
    apiKey,
    uploadHosts: ["127.0.0.1"],
    maxAttempts: 4,
    timeoutMs: 2000,
    onAttempt: (report) => attempts.push(report),
    retryRuntime: {
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    },
    ...overrides,
  });
  return { client, attempts };
}

describe("headers", () => {
  test("sends the API key, the bearer token and JSON headers to the API", async () => {
    replies = [json(200, { id: "u1" })];
    const { client } = makeClient();
    await client.getCurrentUser({ accessToken: "tok-abc" });
    expect(seen[0]?.url).toBe("/v1/users/me");
    expect(seen[0]?.headers["x-api-key"]).toBe(apiKey);
    expect(seen[0]?.headers.authorization).toBe("Bearer tok-abc");
    expect(seen[0]?.headers.accept).toBe("application/json");
  });
});

describe("retries", () => {
  test("retries 503 then succeeds, reporting every attempt with its delay", async () => {
    replies = [json(503, { error: { code: "down", message: "down" } }), json(502, {}), json(200, { id: "u1" })];
    const { client, attempts } = makeClient();
    expect(await client.getCurrentUser({ accessToken: "t" })).toEqual({ id: "u1" });
    expect(attempts.map((report) => [report.attempt, report.status, report.retryDelayMs])).toEqual([
      [1, 503, 250],
      [2, 502, 500],
      [3, 200, undefined],
    ]);
    expect(attempts[0]).toMatchObject({ operation: "getCurrentUser", method: "GET", path: "/v1/users/me" });
    expect(sleeps).toEqual([250, 500]);
  });

  test("gives up after maxAttempts with an unavailable error that counts them", async () => {
    replies = [json(500, {}), json(500, {}), json(500, {}), json(500, {})];
    const { client, attempts } = makeClient();
    const error = await client.getCurrentUser({ accessToken: "t" }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect((error as UpstreamUnavailableError).attempts).toBe(4);
    expect(seen).toHaveLength(4);
    expect(attempts.at(-1)?.retryDelayMs).toBeUndefined();
  });

  test("honours Retry-After in seconds and as an HTTP date", async () => {
    const inTwoSeconds = new Date(Date.now() + 2000).toUTCString();
    replies = [json(429, {}, { "retry-after": "3" }), json(503, {}, { "retry-after": inTwoSeconds }), json(200, { id: "u1" })];
    const { client } = makeClient();
    await client.getCurrentUser({ accessToken: "t" });
    expect(sleeps[0]).toBe(3000);
    expect(sleeps[1]).toBeGreaterThan(0);
    expect(sleeps[1]).toBeLessThanOrEqual(2000);
  });

  test("retries 408 and network errors", async () => {
    replies = [json(408, {}), (_, response) => response.socket?.destroy(), json(200, { id: "u1" })];
    const { client, attempts } = makeClient();
    await client.getCurrentUser({ accessToken: "t" });
    expect(attempts.map((report) => report.status)).toEqual([408, undefined, 200]);
    expect(attempts[1]?.error).toBeTruthy();
  });

  test.each([
    [400, UpstreamRejectedError],
    [404, UpstreamRejectedError],
    [409, UpstreamRejectedError],
    [422, UpstreamRejectedError],
    [401, UpstreamAuthenticationError],
    [403, UpstreamAuthenticationError],
  ])("does not retry %i", async (status, type) => {
    replies = [json(status, { error: { code: "nope", message: "No.", details: [{ index: 3, field: "name", reason: "too long" }] } })];
    const { client } = makeClient();
    const error = await client.getCurrentUser({ accessToken: "t" }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(type);
    expect(seen).toHaveLength(1);
    expect(error).toMatchObject({ status, upstreamCode: "nope", details: [{ index: 3, field: "name", reason: "too long" }], attempts: 1 });
  });

  test("times out a request that hangs and retries it", async () => {
    replies = [() => undefined, json(200, { id: "u1" })];
    const { client, attempts } = makeClient({ timeoutMs: 300 });
    await client.getCurrentUser({ accessToken: "t" });
    expect(attempts[0]?.error).toMatch(/timed out after 300 ms/);
    expect(attempts[0]?.durationMs).toBeGreaterThanOrEqual(250);
  });

  test("stops at once, without retrying, when the caller cancels", async () => {
    replies = [() => undefined, json(200, { id: "u1" })];
    const controller = new AbortController();
    const { client, attempts } = makeClient({ timeoutMs: 5000, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(client.getCurrentUser({ accessToken: "t" })).rejects.toBeInstanceOf(UpstreamCancelledError);
    expect(seen).toHaveLength(1);
    expect(attempts).toMatchObject([{ error: "cancelled" }]);
  });

  test("full jitter stays under the doubling ceiling", () => {
    expect(computeBackoffDelay(1, defaultRetryPolicy, () => 0.999)).toBeLessThan(500);
    expect(computeBackoffDelay(3, defaultRetryPolicy, () => 0.999)).toBeLessThan(2000);
    expect(computeBackoffDelay(30, defaultRetryPolicy, () => 0.999)).toBeLessThan(30_000);
    expect(computeBackoffDelay(3, defaultRetryPolicy, () => 0)).toBe(0);
  });

  test("reads Retry-After forms", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("-5", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    // The two obsolete forms of an HTTP date (RFC 9110 §5.6.7), in GMT.
    expect(parseRetryAfter("Thursday, 01-Jan-26 00:01:00 GMT", now)).toBe(60_000);
    expect(parseRetryAfter("Thu Jan  1 00:00:45 2026", now)).toBe(45_000);
    // Anything else leaves the wait to the backoff, never "at once": text a lenient date parser would read as a
    // moment long past, an impossible day, another zone, numbers that are not delta-seconds.
    for (const garbage of [
      "a 1",
      "soon 5",
      "2026-01-01T00:00:30Z",
      "Thu, 31 Feb 2026 00:00:30 GMT",
      "Thu, 01 Jan 2026 00:00:30 +0100",
      "1.5",
      "1e3",
      "0x10",
      "Infinity",
    ])
      expect(parseRetryAfter(garbage, now), garbage).toBeUndefined();
  });

  test("gives up at once when Retry-After asks for longer than the configured maximum", async () => {
    replies = [json(429, {}, { "retry-after": "3600" })];
    const { client } = makeClient({ maxRetryAfterMs: 60_000 });
    await expect(client.getCurrentUser({ accessToken: "t" })).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(seen).toHaveLength(1);
  });
});

describe("redirects and bodies", () => {
  test("refuses to follow a redirect from the API", async () => {
    replies = [(_, response) => response.writeHead(302, { location: `${origin}/elsewhere?access_token=leak` }).end()];
    const { client } = makeClient();
    const error = await client.getCurrentUser({ accessToken: "t" }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamInvalidResponseError);
    expect((error as Error).message).not.toContain("leak");
    expect(seen.map((request) => request.url)).toEqual(["/v1/users/me"]);
  });

  test("accepts an empty or non-JSON 2xx body where the spec shows none", async () => {
    replies = [(_, response) => response.writeHead(204).end(), (_, response) => response.writeHead(200).end("ok")];
    const { client } = makeClient();
    const call = { accessToken: "t", locationId: "loc-1", managementSystem: "Acme", syncInProgress: true };
    expect(await client.updateManagementSystem(call)).toBeUndefined();
    expect(await client.updateManagementSystem(call)).toBe("ok");
    expect(JSON.parse(seen[0]!.body)).toEqual({ management_system: "Acme", management_system_sync_in_progress: true });
  });

  // Bodies the spec does not show: every 2xx is a success, whatever it holds.
  const unshownBodies: [string, Reply][] = [
    ["204 without a body", (_, response) => response.writeHead(204).end()],
    ["200 with an empty body", (_, response) => response.writeHead(200).end()],
    ["text/plain", (_, response) => response.writeHead(200, { "content-type": "text/plain" }).end("OK")],
    ["a nested object", json(200, { data: { result: { id: "u1", email: "a@b.c" } }, meta: { request_id: "r1" } })],
    ["fields of unexpected types", json(201, { id: 42, email: null, name: ["x"], location_id: "another-location" })],
    ["a JSON array", json(200, [1, 2])],
  ];

  test.each(unshownBodies)("users/me succeeds on %s and names no one it cannot read", async (_, reply) => {
    replies = [reply];
    const { client, attempts } = makeClient();
    expect(await client.getCurrentUser({ accessToken: "t" })).toEqual({});
    expect(attempts).toHaveLength(1);
  });

  // A 2xx whose body never ends, trickles on past the timeout, or breaks off: where the spec shows no body, the status
  // decides; the history keeps what came (at most 1 MB).
  const endless: Reply = (request, response) => {
    response.writeHead(200);
    const pour = () => {
      while (!response.destroyed && response.write(Buffer.alloc(64 * 1024, "x")));
    };
    response.on("drain", pour);
    pour();
  };
  const trickling: Reply = (request, response) => {
    response.writeHead(200, { "content-type": "text/plain" });
    const timer = setInterval(() => response.write("."), 50);
    response.on("close", () => clearInterval(timer));
  };
  const brokenOff: Reply = (request, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
    response.write('{"ok":');
    setTimeout(() => response.destroy(), 20);
  };

  test.each([
    ["never ends", endless],
    ["trickles past the timeout", trickling],
    ["breaks off", brokenOff],
  ])("update_management_system succeeds on a 2xx whose body %s, in one attempt", async (_, reply) => {
    replies = [reply];
    const { client, attempts } = makeClient({ timeoutMs: 500 });
    const started = Date.now();
    await client.updateManagementSystem({ accessToken: "t", locationId: "loc-1", managementSystem: "Acme", syncInProgress: true });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ status: 200 });
    expect(attempts[0]!.error).toBeUndefined();
    expect(attempts[0]!.exchange!.responseBodyBytes!).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
  });

  test("a token answer whose body never ends or breaks off fails clearly: the token must arrive whole", async () => {
    replies = [endless, brokenOff, brokenOff, brokenOff, brokenOff];
    const { client } = makeClient({ timeoutMs: 500 });
    const login = { email: "o@example.com", password: "pw-123456", clientId: "cid", clientSecret: "secret-1" };
    const first = await client.createUserAccessToken(login).catch((thrown: unknown) => thrown);
    expect(first).toBeInstanceOf(UpstreamInvalidResponseError);
    expect((first as Error).message).toBe("POST /access_tokens answered 200 with a body that is not JSON");
    const second = await client.createUserAccessToken(login).catch((thrown: unknown) => thrown);
    expect(second).toBeInstanceOf(UpstreamUnavailableError);
  });

  test("users/me keeps the e-mail and name it can read, for display", async () => {
    replies = [json(200, { email: "owner@example.com", name: "Olivia", location_id: "elsewhere" })];
    const { client } = makeClient();
    expect(await client.getCurrentUser({ accessToken: "t" })).toEqual({ email: "owner@example.com", name: "Olivia" });
  });

  test.each(unshownBodies)("batch_sync_*, update_management_system and the upload PUT succeed on %s", async (_, reply) => {
    const { client } = makeClient();
    const call = { accessToken: "t", locationId: "loc-1" };
    replies = [reply, reply, reply, reply];
    await client.updateManagementSystem({ ...call, managementSystem: "Acme", syncInProgress: true });
    await client.syncCalendars({ ...call, records: [{ external_id: "cal-1" }] });
    await client.syncServiceCategories({ ...call, records: [{ external_id: "cat-1" }] });
    await client.syncServices({ ...call, records: [{ external_id: "svc-1" }] });
    replies = [json(200, { put_data_url: `${origin}/uploads/0123456789abcdef0123`, data: { result: {} }, request_id: 7 }), reply];
    const outcome = await client.importContactDetails({ ...call, records: [{ external_id: "c-1" }] });
    expect(outcome).toMatchObject({ records: 1, attempts: 1 });
    expect(seen).toHaveLength(6);
  });

  test.each([
    ["a missing put_data_url", json(200, { data: { put_data_url: "https://u.test/1" } }), /without the expected fields \(put_data_url\)/],
    ["a put_data_url that is not a URL", json(200, { put_data_url: "later" }), /without the expected fields \(put_data_url\)/],
    ["an empty body", (_: Seen, response: http.ServerResponse) => response.writeHead(200).end(), /with an empty body/],
    ["a text body", (_: Seen, response: http.ServerResponse) => response.writeHead(200).end("OK"), /not JSON/],
  ] as [string, Reply, RegExp][])("a bulk POST answered with %s fails clearly, sends nothing and is not retried", async (_, reply, message) => {
    replies = [reply];
    const { client } = makeClient();
    const error = await client
      .importContactDetails({ accessToken: "t", locationId: "loc-1", records: [{ external_id: "c-1" }] })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamInvalidResponseError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain("contact_details/batch_create_or_update");
    expect(seen).toHaveLength(1);
  });

  test.each([
    ["a missing access_token", json(200, { token: "t" }), /without the expected fields \(access_token\)/],
    ["an empty access_token", json(200, { access_token: "" }), /without the expected fields \(access_token\)/],
    ["an access_token with a line break", json(200, { access_token: "abc\r\nx-evil: 1" }), /without the expected fields \(access_token\)/],
    ["an access_token of white space", json(200, { access_token: " " }), /without the expected fields \(access_token\)/],
    ["an access_token with a space at its end", json(200, { access_token: "abc " }), /without the expected fields \(access_token\)/],
    ["an access_token beyond one byte a character", json(200, { access_token: "tok€n" }), /without the expected fields \(access_token\)/],
    ["a 204", (_: Seen, response: http.ServerResponse) => response.writeHead(204).end(), /with an empty body/],
  ] as [string, Reply, RegExp][])("a token endpoint answered with %s fails clearly", async (_, reply, message) => {
    replies = [reply];
    const { client } = makeClient();
    const error = await client
      .createUserAccessToken({ email: "a@b.c", password: "pw-1", clientId: "cid", clientSecret: "cs" })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamInvalidResponseError);
    expect((error as Error).message).toMatch(message);
  });

  test("takes any token an HTTP header can carry, and sends it back as it came", async () => {
    const token = "a.B-c_d~e+f/g=h i\u00e9!";
    replies = [json(200, { access_token: token }), json(200, { access_token: "location-token" })];
    const { client } = makeClient();
    expect(await client.createUserAccessToken({ email: "a@b.c", password: "pw-1", clientId: "cid", clientSecret: "cs" })).toBe(token);
    await client.createLocationAccessToken({ userAccessToken: token, locationId: "loc-1", clientId: "cid", clientSecret: "cs" });
    expect(Buffer.from(seen[1]!.headers.authorization!, "latin1").toString("latin1")).toBe(`Bearer ${token}`);
  });

  test("keeps secrets out of errors even when the upstream echoes them", async () => {
    replies = [json(401, { error: { code: "bad", message: `key ${apiKey} and secret cs-secret-1 refused` }, password: "pw-1234" })];
    const { client } = makeClient();
    const error = await client
      .createUserAccessToken({ email: "a@b.c", password: "pw-1234", clientId: "cid", clientSecret: "cs-secret-1" })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamAuthenticationError);
    const shown = JSON.stringify(error) + (error as Error).message;
    for (const secret of [apiKey, "cs-secret-1", "pw-1234"]) expect(shown).not.toContain(secret);
  });

  test("does not send records that break the schema or repeat an external_id", async () => {
    const { client } = makeClient();
    const call = { accessToken: "t", locationId: "loc-1" };
    await expect(client.syncCalendars({ ...call, records: [{ external_id: "a" }, { external_id: "a" }] })).rejects.toMatchObject({
      details: [{ index: 1, field: "external_id" }],
    });
    await expect(client.syncCalendars({ ...call, records: [{ external_id: "a", id: "b" }] })).rejects.toBeInstanceOf(UpstreamRejectedError);
    expect(seen).toHaveLength(0);
  });
});

describe("upload step", () => {
  test.each([
    ["plain http off loopback", "http://uploads.example.com/u/1", ["uploads.example.com"]],
    ["a host outside the allow-list", "https://evil.example.net/u/1", ["uploads.example.com"]],
    ["user info in the address", "https://user:pw@uploads.example.com/u/1", ["uploads.example.com"]],
    ["a port other than the pinned one", "https://uploads.example.com:8443/u/1", ["uploads.example.com:443"]],
    ["a subdomain on a port other than the wildcard's", "https://bucket.example.com:8443/u/1", ["*.example.com:443"]],
    ["https (port 443) where port 8443 is pinned", "https://uploads.example.com/u/1", ["uploads.example.com:8443"]],
    ["not a URL", "uploads/1", ["uploads.example.com"]],
  ])("refuses %s", (_, address, hosts) => {
    expect(() => checkUploadAddress(address, hosts)).toThrow(UpstreamUploadError);
  });

  test("admits https hosts of the allow-list, wildcard subdomains and loopback http", () => {
    expect(checkUploadAddress("https://uploads.example.com/u/1", ["uploads.example.com"]).host).toBe("uploads.example.com");
    expect(checkUploadAddress("https://bucket.s3.example.com/u/1", ["*.s3.example.com"]).hostname).toBe("bucket.s3.example.com");
    expect(checkUploadAddress("http://127.0.0.1:4000/u/1", ["127.0.0.1"]).port).toBe("4000");
  });

  // Settings → Environments accepts "host:443" and "*.domain:443"; URL.host drops https's default port.
  test("a host or wildcard pinned to :443 admits https addresses, with or without the port written", () => {
    const pinned = UploadHosts.parse(["uploads.example.com:443"]);
    expect(() => checkUploadAddress("https://uploads.example.com/u/abc", pinned)).not.toThrow();
    expect(() => checkUploadAddress("https://uploads.example.com:443/u/abc", pinned)).not.toThrow();
    const wildcard = UploadHosts.parse(["*.example.com:443"]);
    expect(() => checkUploadAddress("https://bucket.example.com/u/abc", wildcard)).not.toThrow();
    expect(() => checkUploadAddress("https://example.com/u/abc", wildcard)).toThrow(UpstreamUploadError);
  });

  test("sends nothing when put_data_url points outside the allow-list", async () => {
    replies = [json(200, { put_data_url: "https://evil.example.net/u/abc" })];
    const { client } = makeClient();
    const error = await client
      .importContactDetails({ accessToken: "t", locationId: "loc-1", records: [{ external_id: "c-1" }] })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamUploadAddressError);
    expect((error as Error).message).toMatch(/is not one of this environment's upload hosts \(Settings → Environments\)/);
    expect(seen).toHaveLength(1);
  });

  test("streams a JSON array with no API key and no token to the upload address", async () => {
    replies = [json(200, { put_data_url: `${origin}/uploads/0123456789abcdef0123` }), json(200, { received: 3 })];
    const { client, attempts } = makeClient();
    async function* contacts() {
      for (let index = 0; index < 3; index += 1) yield { external_id: `c-${index}`, mobile_phone_number: "+4912345" };
    }
    const outcome = await client.importContactDetails({ accessToken: "tok-xyz", locationId: "loc-1", records: contacts });
    const upload = seen[1]!;
    expect(upload.method).toBe("PUT");
    expect(upload.headers["x-api-key"]).toBeUndefined();
    expect(upload.headers.authorization).toBeUndefined();
    expect(upload.url).not.toContain("access_token");
    expect(upload.headers["content-type"]).toBe("application/json");
    expect(upload.headers["transfer-encoding"]).toBe("chunked");
    expect(JSON.parse(upload.body)).toHaveLength(3);
    expect(JSON.parse(seen[0]!.body)).toEqual({});
    expect(outcome).toMatchObject({ records: 3, status: 200, attempts: 1, response: { received: 3 } });
    expect(attempts[1]).toMatchObject({ method: "PUT", path: `127.0.0.1:${new URL(origin).port}/uploads/[REDACTED]`, records: 3 });
  });

  test("refuses a redirect from the upload address, and asks for no other address", async () => {
    replies = [
      json(200, { put_data_url: `${origin}/uploads/0123456789abcdef0123` }),
      (_, response) => response.writeHead(307, { location: "/x" }).end(),
    ];
    const { client } = makeClient();
    const error = await client
      .importContactDetails({ accessToken: "t", locationId: "loc-1", records: [{ external_id: "c" }] })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamUploadAddressError);
    expect((error as Error).message).toMatch(/answered a redirect \(307\).*upload hosts \(Settings → Environments\)/);
    expect(seen.map((request) => request.method)).toEqual(["POST", "PUT"]);
  });

  test("aborts the upload at the first invalid record, naming its position", async () => {
    replies = [json(200, { put_data_url: `${origin}/uploads/0123456789abcdef0123` }), json(200, {})];
    const { client } = makeClient();
    const records = [{ external_id: "c-0" }, { external_id: "c-1", birthdate: "1990-02-30" }];
    const error = await client.importContactDetails({ accessToken: "t", locationId: "loc-1", records }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamUploadError);
    expect((error as UpstreamUploadError).details[0]).toMatchObject({ index: 1, field: "birthdate" });
  });
});

describe("an upload host that answers before the body is sent", () => {
  // Answers each PUT at once, without reading its body, while `early` lasts; then reads the whole body first.
  let early = 0;
  let received: number[] = [];
  let hostile: http.Server;
  let hostileOrigin: string;
  beforeAll(async () => {
    hostile = http.createServer((incoming, outgoing) => {
      if (incoming.method === "PUT" && early > 0) {
        early -= 1;
        outgoing.writeHead(200, { "content-type": "application/json", connection: "close" }).end("{}");
        setTimeout(() => incoming.socket.destroy(), 20);
        return;
      }
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        if (incoming.method === "PUT") received.push((JSON.parse(Buffer.concat(chunks).toString()) as unknown[]).length);
        const answer = incoming.method === "PUT" ? {} : { put_data_url: `${hostileOrigin}/uploads/0123456789abcdef${received.length}` };
        outgoing.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
    hostileOrigin = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => hostile.close(() => resolve())));
  beforeEach(() => {
    received = [];
  });

  // Enough records that the body is far from sent when the answer comes (~12 MB).
  const contacts = () =>
    (function* () {
      for (let index = 0; index < 100_000; index += 1) yield { external_id: `c-${index}`, first_name: "x".repeat(100) };
    })();

  test("a 200 before the whole body was taken is no success: the upload is tried again with a fresh address", async () => {
    early = 1;
    const { client, attempts } = makeClient({ baseUrl: hostileOrigin });
    const outcome = await client.importContactDetails({ accessToken: "t", locationId: "loc-1", records: contacts });
    expect(outcome).toMatchObject({ records: 100_000, status: 200, attempts: 2 });
    expect(received).toEqual([100_000]);
    const uploads = attempts.filter((attempt) => attempt.method === "PUT");
    expect(uploads).toHaveLength(2);
    expect(uploads[0]).toMatchObject({ status: 200, error: "answered 200 before the whole body was sent", sha256: null });
    expect(uploads[0]!.records).toBeLessThan(100_000);
    expect(uploads[1]).toMatchObject({ status: 200, records: 100_000, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  test("a host that always answers early fails the import, and nothing counts as accepted", async () => {
    early = 100;
    const { client } = makeClient({ baseUrl: hostileOrigin, maxAttempts: 2 });
    const error = await client.importContactDetails({ accessToken: "t", locationId: "loc-1", records: contacts }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect((error as Error).message).toMatch(/^PUT 127\.0\.0\.1:\d+\/uploads\/\[REDACTED\] answered 200 before the whole body was sent$/);
    expect(received).toEqual([]);
  });
});

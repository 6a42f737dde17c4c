import { readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { apiAs } from "./support/api";
import { randomSuffix } from "./support/canary-values";
import { connectToAppDatabase } from "./support/database";
import { LOG_FILE } from "./support/global-setup";
import { baseUrl, expect, test } from "./support/test";

const FIFTY_MB = 50 * 1024 * 1024;
const inviteToken = "A".repeat(43);

function serverPid(): string {
  const pid = process.env.E2E_SERVER_PID;
  if (!pid) throw new Error("E2E_SERVER_PID is not set: run through playwright (global setup starts the app)");
  return pid;
}

/** The server's resident memory now (VmRSS) or at its peak since the last resetServerPeakMemory (VmHWM). */
function serverMemoryBytes(field: "VmRSS" | "VmHWM"): number {
  const kilobytes = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${serverPid()}/status`, "utf8"))?.[1];
  return Number(kilobytes) * 1024;
}

/** Linux: writing 5 to clear_refs resets the peak resident memory to the current one. */
function resetServerPeakMemory(): void {
  writeFileSync(`/proc/${serverPid()}/clear_refs`, "5");
}

/** A valid JSON body of `size` bytes: one long string, so the old code read and parsed all of it. */
function hugeJson(size: number): Buffer {
  const body = Buffer.alloc(size, 0x61);
  body.write('{"password":"', 0);
  body.write('"}', size - 2);
  return body;
}

/** POSTs a JSON body of about `size` bytes with chunked transfer encoding (no Content-Length to trust), streamed in 1 MB pieces. */
function postChunked(path: string, size: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = httpRequest(
      `${baseUrl()}${path}`,
      { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } },
      (incoming) => {
        answered = true;
        let body = "";
        incoming.on("data", (chunk) => (body += chunk));
        incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, body }));
      },
    );
    // Once answered, the server may stop reading what we still send: that is the point.
    outgoing.on("error", (error) => (answered ? undefined : reject(error)));
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const piece = Buffer.alloc(Math.min(1024 * 1024, size - sent), 0x61);
        sent += piece.length;
        if (!outgoing.write(piece)) return void outgoing.once("drain", pump);
      }
      outgoing.end('"}');
    };
    outgoing.write('{"password":"');
    pump();
  });
}

test.describe("request bodies are limited before parsing", () => {
  test("a 50 MB JSON body to an anonymous endpoint is refused with 413 at once, and the server's memory does not jump", async () => {
    const anonymous = await apiAs(null);
    const refuseAll = async () => {
      for (const path of [`/api/invites/${inviteToken}`, "/api/auth/callback/credentials"]) {
        const response = await anonymous.post(path, { data: hugeJson(FIFTY_MB), headers: { "content-type": "application/json" } });
        expect(response.status(), path).toBe(413);
        expect(response.headers()["content-type"]).toBe("application/problem+json");
        expect(await response.json()).toMatchObject({ status: 413, code: "BODY_TOO_LARGE" });
      }
      // Without Content-Length the stream is read only up to the limit.
      expect((await postChunked(`/api/invites/${inviteToken}`, FIFTY_MB)).status).toBe(413);
    };
    // A first round loads the code of these answers, which takes memory of its own.
    await refuseAll();
    resetServerPeakMemory();
    const before = serverMemoryBytes("VmRSS");
    const started = Date.now();
    for (let round = 0; round < 2; round += 1) await refuseAll();
    expect(Date.now() - started).toBeLessThan(20_000);
    // Reading and parsing one such body took 150 MB; what a busy server moves on its own stays well under 100 MB.
    expect(serverMemoryBytes("VmHWM") - before).toBeLessThan(100 * 1024 * 1024);
    await anonymous.dispose();
  });
});

test.describe("bad input gets a 4xx problem+json, never a 500", () => {
  test("NUL, lone surrogates and control characters in text inputs, searches and filters are refused naming the field", async () => {
    const support = await apiAs("support");
    const admin = await apiAs("admin");
    const name = `Hostile ${randomSuffix()}`;
    const location = {
      name,
      timeZone: "Europe/Berlin",
      country: "DE",
      environment: "staging",
      upstreamLocationId: `hostile-${randomSuffix()}`,
      sourceKey: "hostile",
    };
    const refusals: [string, Promise<import("@playwright/test").APIResponse>, string][] = [
      ["location name with NUL", support.post("/api/locations", { data: { ...location, name: `${name}\u0000` } }), "name"],
      ["location name with a lone surrogate", support.post("/api/locations", { data: { ...location, name: `${name}\ud800` } }), "name"],
      ["location name with an escape sequence", support.post("/api/locations", { data: { ...location, name: `${name}\u001b[2J` } }), "name"],
      [
        "location name with a right-to-left override",
        support.post("/api/locations", { data: { ...location, name: `${name}\u202Egnp.exe` } }),
        "name",
      ],
      ["location name with a zero-width space", support.post("/api/locations", { data: { ...location, name: `${name}\u200b` } }), "name"],
      ["source key with NUL", support.post("/api/locations", { data: { ...location, sourceKey: "a\u0000" } }), "sourceKey"],
      ["location search with NUL", support.get("/api/locations?q=%00"), "q"],
      [
        "fleet-wide cursor with NUL",
        support.get(`/api/locations?after=${Buffer.from(JSON.stringify(["\u0000", "00000000-0000-4000-8000-000000000000"])).toString("base64url")}`),
        "after",
      ],
      ["audit actor filter with NUL", admin.get("/api/audit-log?actor=%00"), "actor"],
      ["audit action filter with an escape", admin.get("/api/audit-log?action=%1B%5B2J"), "action"],
      ["audit cursor with a malformed date", admin.get("/api/audit-log?before=2024-99-99T99:99Z_1"), "before"],
      ["audit cursor with an over-long id", admin.get("/api/audit-log?before=2024-01-01T00:00:00.000Z_99999999999999999999999"), "before"],
      ["audit date PostgreSQL cannot hold", admin.get("/api/audit-log?from=0000-01-01"), "from"],
      ["sessions created on a day PostgreSQL cannot hold", support.get("/api/sessions?created=0000-01-01"), "created"],
      ["sessions ended on a day PostgreSQL cannot hold", support.get("/api/sessions?ended=0000-02-29"), "ended"],
    ];
    for (const [label, pending, field] of refusals) {
      const response = await pending;
      expect(response.status(), label).toBe(422);
      expect(response.headers()["content-type"], label).toBe("application/problem+json");
      const problem = await response.json();
      expect(
        problem.errors.map((error: { field: string }) => error.field),
        label,
      ).toContain(field);
    }
    const listed = await (await support.get(`/api/locations?q=${encodeURIComponent("Hostile")}`)).json();
    expect(listed.items.map((item: { name: string }) => item.name)).not.toContain(name);
    await Promise.all([support.dispose(), admin.dispose()]);
  });

  test("the schedule reason, the preview's search and cause, and record positions past an integer are refused on a real location", async () => {
    const support = await apiAs("support");
    const { items } = await (await support.get("/api/locations?q=Demo%20Salon%20North")).json();
    const locationId = items[0].id as string;
    const before = (await (await support.get(`/api/locations/${locationId}`)).json()).location;
    for (const paused of [true, false]) {
      const response = await support.post(`/api/locations/${locationId}/schedule`, { data: { paused, reason: "maintenance\u0000" } });
      expect(response.status()).toBe(422);
    }
    expect((await (await support.get(`/api/locations/${locationId}`)).json()).location).toEqual(before);
    const records = await support.get(`/api/locations/${locationId}/preview/records?q=%00`);
    expect(records.status()).toBe(422);
    // A cause whose part decodes to a NUL (%2500 → %00 → NUL), and positions PostgreSQL's integer cannot hold.
    for (const [path, field] of [
      [`/preview/records?type=contact_details&cause=issue%3Acontact_details%3Awarning%3Aphone%3A%2500`, "cause"],
      [`/preview/records?type=contact_details&cause=missing%3Acontact_details%3A%2500`, "cause"],
      [`/preview/records?type=contact_details&record=2147483648`, "record"],
      [`/preview/records/2147483648?type=contact_details`, "seq"],
    ]) {
      const refused = await support.get(`/api/locations/${locationId}${path}`);
      expect(refused.status(), path).toBe(422);
      expect(
        (await refused.json()).errors.map((error: { field: string }) => error.field),
        path,
      ).toContain(field);
    }
    await support.dispose();
  });

  test("pages with NUL in their search or filters show the unfiltered list instead of failing", async () => {
    const admin = await apiAs("admin");
    for (const path of [
      "/locations?q=%00",
      "/sessions?q=%00",
      "/fleet?q=%00",
      "/settings/audit?actor=%00&before=2024-99-99T99:99Z_1",
      "/settings/sandbox?location=%00",
    ]) {
      const response = await admin.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(200);
    }
    await admin.dispose();
  });

  test("TRACE, methods a route does not serve and undecodable paths are answered with problem+json", async () => {
    const admin = await apiAs("admin");
    for (const [method, path, status] of [
      ["TRACE", "/api/users", 405],
      ["TRACE", "/locations", 405],
      ["DELETE", "/api/users", 405],
      ["GET", "/api/locations/%", 400],
      ["GET", "/api/locations/%ED%A0%80", 400],
    ] as const) {
      const response = await admin.fetch(path, { method, maxRedirects: 0 });
      expect(response.status(), `${method} ${path}`).toBe(status);
      expect(response.headers()["content-type"], `${method} ${path}`).toBe("application/problem+json");
    }
    await admin.dispose();
  });
});

test.describe("internals never reach callers or logs", () => {
  test("a sign-in with NUL in the email is answered like a wrong password, with no SQL, and nothing reaches the log", async () => {
    const anonymous = await apiAs(null);
    const { csrfToken } = await (await anonymous.get("/api/auth/csrf")).json();
    const marker = `nul-${randomSuffix()}`;
    const response = await anonymous.post("/api/auth/callback/credentials", {
      form: { csrfToken, email: `${marker}\u0000@demo.test`, password: "whatever", json: "true" },
    });
    const text = await response.text();
    expect(response.status()).toBe(401);
    expect(JSON.parse(text).url).toContain("error=CredentialsSignin");
    for (const internal of ["Failed query", "select", "params", "rate_limit", marker]) expect(text).not.toContain(internal);

    // A page whose search once reached PostgreSQL with NUL (its error, with the parameters, went to the log).
    const admin = await apiAs("admin");
    expect((await admin.get(`/locations?q=${marker}%00`)).status()).toBe(200);
    const log = readFileSync(LOG_FILE, "utf8");
    expect(log).not.toContain(marker);
    expect(log).not.toContain("Failed query");
    expect(log).not.toMatch(/^\s*params:/m);
    await Promise.all([anonymous.dispose(), admin.dispose()]);
  });

  test("a query that fails leaves its class and code in the log, never its parameters", async () => {
    const admin = await apiAs("admin");
    const database = connectToAppDatabase();
    const marker = `marker-${randomSuffix()}@example.test`;
    // Hidden for a moment, so the audit log's queries fail the way an unforeseen bug's would.
    await database.sql`alter table audit_log rename to audit_log_hidden`;
    try {
      const api = await admin.get(`/api/audit-log?actor=${encodeURIComponent(marker)}`);
      expect(api.status()).toBe(500);
      expect(await api.text()).not.toContain(marker);
      expect((await admin.get(`/settings/audit?actor=${encodeURIComponent(marker)}`)).status()).toBe(500);
    } finally {
      await database.sql`alter table audit_log_hidden rename to audit_log`;
      await database.close();
    }
    await expect.poll(() => readFileSync(LOG_FILE, "utf8")).toMatch(/PostgresError 42P01[^\n]*\n[\s\S]*PostgresError 42P01/);
    const log = readFileSync(LOG_FILE, "utf8");
    expect(log).not.toContain(marker);
    expect(log).not.toContain("Failed query");
    await admin.dispose();
  });
});

test.describe("request checks", () => {
  test("X-Forwarded-Host does not make a cross-origin write same-origin without TRUST_PROXY", async () => {
    const admin = await apiAs("admin");
    const email = `forwarded-${randomSuffix()}@example.test`;
    const refused = await admin.post("/api/users", {
      data: { email, name: "", role: "admin" },
      headers: { origin: "https://evil.example", "x-forwarded-host": "evil.example" },
    });
    expect(refused.status()).toBe(403);
    const list = await (await admin.get("/api/users")).json();
    expect(list.users.map((user: { email: string }) => user.email)).not.toContain(email);
    await admin.dispose();
  });

  test("a body that is not application/json (text/plain; application/json included) is refused with 415 and changes nothing", async () => {
    const admin = await apiAs("admin");
    const email = `plain-${randomSuffix()}@example.test`;
    for (const type of ["text/plain; application/json", "text/plain", "application/x-www-form-urlencoded; application/json"]) {
      const refused = await admin.post("/api/users", { data: JSON.stringify({ email, name: "", role: "admin" }), headers: { "content-type": type } });
      expect(refused.status(), type).toBe(415);
      expect(refused.headers()["content-type"]).toBe("application/problem+json");
    }
    const list = await (await admin.get("/api/users")).json();
    expect(list.users.map((user: { email: string }) => user.email)).not.toContain(email);
    await admin.dispose();
  });
});

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { auditLog, rateLimitBuckets } from "@/db/schema";
import { databaseAsText } from "@/db/testing/database-text";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemActorAs, type OperationActor } from "@/lib/auth/permissions";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { createSandboxFixture, type SandboxFixture } from "@/lib/sandbox/testing";
import { startRecordingProxy, type RecordingProxy } from "@/lib/upstream/testing/recording-proxy";
import { pointEnvironmentAtSandbox } from "./point-at-sandbox";
import { credentialsTestLimit, testEnvironmentCredentials } from "./test-environment-credentials";

// Test credentials against the sandbox over real HTTP, through a proxy that keeps what crossed the wire.
const testDb = await useTestDatabase();
const db = testDb.db;
let sandbox: SandboxServer;
let proxy: RecordingProxy;
let fixture: SandboxFixture;
const admin = systemActorAs("admin@example.test", "198.51.100.7");

async function pointStagingAt(apiBaseUrl: string, overrides: Partial<SandboxFixture> = {}) {
  await pointEnvironmentAtSandbox(
    { db, actor: systemActor },
    { name: "staging", apiBaseUrl, uploadOrigin: sandbox.uploadOrigin, credentials: { ...fixture, ...overrides } },
  );
}

const test = (actor: OperationActor = admin, login = fixture.owner) =>
  testEnvironmentCredentials({ db, actor }, { name: "staging", email: login.email, password: login.password });

async function auditDetails() {
  const rows = await db
    .select({ details: auditLog.details, actorEmail: auditLog.actorEmail })
    .from(auditLog)
    .where(and(eq(auditLog.action, "environment.credentials_tested"), eq(auditLog.targetId, "staging")))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return rows[0];
}

beforeAll(async () => {
  sandbox = await startSandboxServer({ db });
  proxy = await startRecordingProxy(sandbox.apiBaseUrl);
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});
beforeEach(async () => {
  // A fresh window for the throttle, and a fresh sandbox client.
  await db.delete(rateLimitBuckets);
  fixture = await createSandboxFixture(db);
  await pointStagingAt(proxy.url);
  proxy.exchanges.length = 0;
});

describe("Test credentials", () => {
  it("works with the right settings and login: one request, nothing of the login or the token kept or logged", async () => {
    const logged: string[] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    }
    const result = await test();
    vi.restoreAllMocks();
    expect(result).toMatchObject({ ok: true, outcome: "ok" });
    expect(result.message).toContain("The credentials work");
    expect(proxy.exchanges.map((exchange) => `${exchange.method} ${exchange.path} ${exchange.status}`)).toEqual(["POST /v1/access_tokens 200"]);
    const userToken = JSON.parse(proxy.exchanges[0]!.responseBody).access_token as string;
    const everything = await databaseAsText(db);
    for (const secret of [fixture.owner.password, userToken]) {
      expect(everything).not.toContain(secret);
      expect(logged.join("\n")).not.toContain(secret);
      expect(JSON.stringify(result)).not.toContain(secret);
    }
    expect(await auditDetails()).toEqual({ actorEmail: "admin@example.test", details: { ok: true, outcome: "ok" } });
  });

  it("tells a wrong API key, wrong client secret and wrong login apart", async () => {
    await pointStagingAt(proxy.url, { apiKey: "not-the-api-key" });
    expect(await test()).toMatchObject({ ok: false, outcome: "api_key", message: expect.stringContaining("refused the API key") });

    await pointStagingAt(proxy.url, { clientSecret: "not-the-client-secret" });
    expect(await test()).toMatchObject({ ok: false, outcome: "client_credentials", message: expect.stringContaining("client ID or client secret") });

    await pointStagingAt(proxy.url);
    const wrongLogin = await test(admin, { ...fixture.owner, password: "not-the-password" });
    expect(wrongLogin).toMatchObject({ ok: false, outcome: "login", message: expect.stringContaining("not that email and password") });
    expect(await auditDetails()).toMatchObject({ details: { ok: false, outcome: "login" } });
    expect(JSON.stringify(await auditDetails())).not.toContain(fixture.owner.email);
  });

  it("tells an unreachable host from an address where something else answers", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await pointStagingAt(`http://127.0.0.1:${port}`);
    expect(await test()).toMatchObject({ ok: false, outcome: "unreachable", message: expect.stringContaining("could not be reached") });

    // The upload host typed as the base URL: it answers, but not as the service's API.
    await pointStagingAt(sandbox.uploadOrigin);
    expect(await test()).toMatchObject({ ok: false, outcome: "wrong_origin", message: expect.stringContaining("Check the base URL") });
  });

  it("is for admins only, and throttled per environment", async () => {
    await expect(test({ id: "00000000-0000-4000-8000-000000000001", role: "support", email: "s@example.test" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    for (let index = 0; index < credentialsTestLimit.limit; index++) await test();
    proxy.exchanges.length = 0;
    await expect(test()).rejects.toMatchObject({ code: "RATE_LIMITED" });
    expect(proxy.exchanges).toHaveLength(0);
  });
});

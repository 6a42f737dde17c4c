import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog, environments, users } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import type { Role } from "@/lib/auth/roles";
import { generateSecretKey } from "@/lib/crypto/keyring";
import { keyIdOf } from "@/lib/crypto/secret-box";
import { DomainError } from "@/lib/errors/domain-error";
import { systemContext } from "@/lib/operations/context";
import { getEnvironmentCredentials } from "./get-environment-credentials";
import { getEnvironmentView, listEnvironmentViews } from "./get-environment-view";
import { updateEnvironment } from "./update-environment";

const testDb = await useTestDatabase();
process.env.APP_SECRET_KEY = generateSecretKey();
delete process.env.APP_SECRET_KEY_PREVIOUS;

const apiKey = "stg-api-key-5d41402abc4b2a76";
const clientSecret = "stg-client-secret-9a0364b9e99bb480";
let admin: { id: string; role: Role; email: string };

const validInput = {
  baseUrl: "https://Staging.Example.test/api/",
  uploadHosts: ["Uploads.Example.test", "files.example.test:8443"],
  clientId: "client-123",
  dataSourceName: "LocationSync",
  apiKey,
  clientSecret,
};

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

beforeAll(async () => {
  const [row] = await testDb.db.insert(users).values({ email: "admin@example.test", name: "Admin", role: "admin" }).returning();
  admin = { id: row!.id, role: row!.role, email: row!.email };
});

describe("environments", () => {
  it("always lists both environments, empty and not configured at first", async () => {
    const views = await listEnvironmentViews(systemContext(testDb.db));
    expect(views.map((view) => view.name)).toEqual(["staging", "production"]);
    expect(views[0]).toMatchObject({ configured: false, baseUrl: null, uploadHosts: [], apiKey: { set: false, hint: null } });
    await expect(getEnvironmentCredentials(testDb.db, "staging")).rejects.toMatchObject({
      code: "NOT_CONFIGURED",
      message: expect.stringContaining("API key"),
    });
  });

  it("stores normalised settings and sealed secrets; the view shows only hints", async () => {
    const view = await updateEnvironment({ db: testDb.db, actor: admin }, { name: "staging", settings: validInput });
    expect(view).toMatchObject({
      name: "staging",
      baseUrl: "https://staging.example.test/api",
      uploadHosts: ["uploads.example.test", "files.example.test:8443"],
      apiKey: { set: true, hint: "set · ends in 2a76" },
      clientSecret: { set: true, hint: "set · ends in b480" },
      configured: true,
      updatedBy: "admin@example.test",
    });
    expect(JSON.stringify(view)).not.toContain(apiKey);
    expect(JSON.stringify(await listEnvironmentViews(systemContext(testDb.db)))).not.toContain(clientSecret);

    const [row] = await testDb.db.select().from(environments).where(eq(environments.name, "staging"));
    expect(row!.apiKeyEncrypted).toMatch(/^v1\./);
    expect(keyIdOf(row!.apiKeyEncrypted!)).toHaveLength(8);
    expect(JSON.stringify(row)).not.toContain(apiKey);
    expect(await getEnvironmentCredentials(testDb.db, "staging")).toEqual({
      name: "staging",
      baseUrl: "https://staging.example.test/api",
      uploadHosts: ["uploads.example.test", "files.example.test:8443"],
      apiKey,
      clientId: "client-123",
      clientSecret,
      dataSourceName: "LocationSync",
      dateTimeStyle: "spec",
    });

    const [audit] = await testDb.db.select().from(auditLog).where(eq(auditLog.action, "environment.credentials_changed"));
    expect(audit).toMatchObject({ actorEmail: "admin@example.test", targetType: "environment", targetId: "staging" });
    expect(audit!.details).toEqual({ changedFields: ["baseUrl", "uploadHosts", "clientId", "dataSourceName", "apiKey", "clientSecret"] });
    expect(JSON.stringify(audit)).not.toContain(apiKey);
  });

  it("keeps stored secrets when they are left out and the destination is unchanged", async () => {
    const { apiKey: _apiKey, clientSecret: _clientSecret, ...withoutSecrets } = validInput;
    const view = await updateEnvironment(
      { db: testDb.db, actor: admin },
      { name: "staging", settings: { ...withoutSecrets, clientId: "client-456" } },
    );
    expect(view).toMatchObject({ clientId: "client-456", apiKey: { set: true, hint: "set · ends in 2a76" } });
    expect((await getEnvironmentCredentials(testDb.db, "staging")).apiKey).toBe(apiKey);
    const entries = await testDb.db.select().from(auditLog).where(eq(auditLog.action, "environment.updated"));
    expect(entries.map((entry) => entry.details)).toEqual([{ changedFields: ["clientId"] }]);
  });

  it("requires the API key and client secret again when the base URL changes, and writes nothing", async () => {
    const before = await testDb.db.select().from(environments).where(eq(environments.name, "staging"));
    const auditBefore = await testDb.db.select().from(auditLog);
    const error = await rejection(
      updateEnvironment(
        { db: testDb.db, actor: admin },
        {
          name: "staging",
          settings: {
            baseUrl: "https://attacker.example.test",
            uploadHosts: validInput.uploadHosts,
            clientId: "client-456",
            dataSourceName: "LocationSync",
          },
        },
      ),
    );
    expect(error.code).toBe("INVALID");
    expect(error.fields.map((field) => field.field)).toEqual(["apiKey", "clientSecret"]);
    expect(error.fields[0]!.reason).toMatch(/base URL or upload hosts changed/);
    expect(await testDb.db.select().from(environments).where(eq(environments.name, "staging"))).toEqual(before);
    expect(await testDb.db.select().from(auditLog)).toHaveLength(auditBefore.length);
  });

  it("requires the secrets when only the upload hosts change, naming just the missing one", async () => {
    const error = await rejection(
      updateEnvironment(
        { db: testDb.db, actor: admin },
        { name: "staging", settings: { ...validInput, uploadHosts: ["other.example.test"], clientSecret: undefined } },
      ),
    );
    expect(error.fields).toEqual([{ field: "clientSecret", reason: expect.stringContaining("Re-enter") }]);
  });

  it("rejects malformed input field by field without echoing it", async () => {
    const error = await rejection(
      updateEnvironment(
        { db: testDb.db, actor: admin },
        {
          name: "production",
          settings: {
            baseUrl: "https://user:pw@api.example.test/?q=1",
            uploadHosts: ["https://uploads.example.test/path"],
            clientId: "",
            dataSourceName: "LocationSync",
            apiKey: "",
          },
        },
      ),
    );
    expect(error.fields.map((field) => field.field).sort()).toEqual(["apiKey", "baseUrl", "clientId", "uploadHosts.0"]);
    expect(JSON.stringify(error.fields)).not.toContain("pw@");
    for (const [baseUrl, reason] of [
      ["ftp://api.example.test", /https/],
      ["https://api.example.test/#frag", /fragment/],
      ["api.example.test", /full URL/],
    ] as const) {
      const failure = await rejection(
        updateEnvironment({ db: testDb.db, actor: admin }, { name: "production", settings: { ...validInput, baseUrl } }),
      );
      expect(failure.fields).toEqual([{ field: "baseUrl", reason: expect.stringMatching(reason) }]);
    }
    for (const host of ["*", "*.test", "*.*.example.test", "uploads.*.example.test", "*example.test"]) {
      const failure = await rejection(
        updateEnvironment({ db: testDb.db, actor: admin }, { name: "production", settings: { ...validInput, uploadHosts: [host] } }),
      );
      expect(failure.fields, host).toEqual([{ field: "uploadHosts.0", reason: expect.stringMatching(/host name/) }]);
    }
    expect(await getEnvironmentView(systemContext(testDb.db), { name: "production" })).toMatchObject({ configured: false, baseUrl: null });
  });

  // The client admits an upload address on any subdomain of a "*.domain" entry (lib/upstream/upload.ts).
  it("accepts *.domain for a storage service's bucket hosts", async () => {
    const view = await updateEnvironment(
      { db: testDb.db, actor: admin },
      { name: "production", settings: { ...validInput, uploadHosts: ["*.Buckets.Example.test", "*.files.example.test:8443"] } },
    );
    expect(view.uploadHosts).toEqual(["*.buckets.example.test", "*.files.example.test:8443"]);
  });

  it("in production mode, refuses a base URL that is not https, naming the field, and writes nothing", async () => {
    const saved = { NODE_ENV: process.env.NODE_ENV, LOCATION_SYNC_EMBEDDED: process.env.LOCATION_SYNC_EMBEDDED };
    Object.assign(process.env, { NODE_ENV: "production" });
    delete process.env.LOCATION_SYNC_EMBEDDED;
    try {
      const before = await getEnvironmentView(systemContext(testDb.db), { name: "production" });
      const error = await rejection(
        updateEnvironment({ db: testDb.db, actor: admin }, { name: "production", settings: { ...validInput, baseUrl: "http://api.example.test" } }),
      );
      expect(error).toMatchObject({ code: "INVALID", fields: [{ field: "baseUrl", reason: expect.stringMatching(/https/) }] });
      expect(await getEnvironmentView(systemContext(testDb.db), { name: "production" })).toEqual(before);
      await expect(
        updateEnvironment({ db: testDb.db, actor: admin }, { name: "production", settings: { ...validInput, baseUrl: "https://api.example.test" } }),
      ).resolves.toMatchObject({
        baseUrl: "https://api.example.test",
      });
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it("does nothing and records nothing when nothing changed", async () => {
    const auditBefore = await testDb.db.select().from(auditLog);
    const { apiKey: _apiKey, clientSecret: _clientSecret, ...same } = { ...validInput, clientId: "client-456" };
    await updateEnvironment({ db: testDb.db, actor: admin }, { name: "staging", settings: same });
    expect(await testDb.db.select().from(auditLog)).toHaveLength(auditBefore.length);
  });
});

describe("environments after a lost key", () => {
  it("shows an undecryptable secret as set but unreadable; the upstream credentials ask an admin to re-enter it and log the missing key", async () => {
    const original = process.env.APP_SECRET_KEY;
    process.env.APP_SECRET_KEY = generateSecretKey();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const view = await getEnvironmentView(systemContext(testDb.db), { name: "staging" });
      expect(view.apiKey).toEqual({ set: true, hint: expect.stringContaining("cannot be decrypted") });
      await expect(getEnvironmentCredentials(testDb.db, "staging")).rejects.toMatchObject({
        code: "NOT_CONFIGURED",
        message: expect.stringMatching(/staging environment's API key cannot be decrypted .* An admin enters it again/),
      });
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/sealed under key [0-9a-f]{8}, which is not in APP_SECRET_KEY/));
    } finally {
      warn.mockRestore();
      process.env.APP_SECRET_KEY = original;
    }
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, environments, locations } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { parseConfig } from "@/lib/config/config";
import { environmentSecretContext } from "@/lib/crypto/encrypted-columns";
import { generateSecretKey, loadKeyring } from "@/lib/crypto/keyring";
import { keyIdOf, openSecret } from "@/lib/crypto/secret-box";
import { runCli as runCliProcess, type CliResult } from "./testing/run-cli";

const testDb = await useTestDatabase();
const appSecretKey = generateSecretKey();
const apiKey = "cli-api-key-8e2f9b61a0c7d5";
const clientSecret = "cli-client-secret-3b7e1d9f2a";

/** The CLI as its own process against this file's database, with this test's APP_SECRET_KEY unless `extraEnv` sets one. */
function runCli(args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
  return runCliProcess(testDb.url, args, { env: { APP_SECRET_KEY: appSecretKey, ...extraEnv } });
}

function expectNoSecret(result: CliResult) {
  for (const secret of [apiKey, clientSecret, appSecretKey]) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

describe("environment CLI", () => {
  it("env:set takes the secrets from UPSTREAM_API_KEY / UPSTREAM_CLIENT_SECRET, stores them sealed and never prints them", async () => {
    const result = await runCli(
      [
        "env:set",
        "staging",
        "--base-url",
        "https://api.staging.example.test",
        "--upload-hosts",
        "uploads.example.test, Files.Example.test:8443",
        "--client-id",
        "cli-client",
        "--data-source-name",
        "LocationSync",
        "--json",
      ],
      { UPSTREAM_API_KEY: apiKey, UPSTREAM_CLIENT_SECRET: clientSecret },
    );
    expect(result).toMatchObject({ code: 0 });
    expectNoSecret(result);
    expect(JSON.parse(result.stdout)).toMatchObject({
      name: "staging",
      uploadHosts: ["uploads.example.test", "files.example.test:8443"],
      apiKey: { set: true, hint: "set · ends in c7d5" },
      configured: true,
    });

    const [row] = await testDb.db.select().from(environments).where(eq(environments.name, "staging"));
    const keyring = loadKeyring(parseConfig({ APP_SECRET_KEY: appSecretKey }));
    expect(keyIdOf(row!.apiKeyEncrypted!)).toBe(keyring.current.id);
    expect(JSON.stringify(row)).not.toContain(apiKey);
    expect(openSecret(row!.apiKeyEncrypted!, environmentSecretContext.apiKey("staging"), keyring)).toBe(apiKey);
    expect(openSecret(row!.clientSecretEncrypted!, environmentSecretContext.clientSecret("staging"), keyring)).toBe(clientSecret);
    const [audit] = await testDb.db.select().from(auditLog).where(eq(auditLog.targetId, "staging"));
    expect(audit).toMatchObject({ actorEmail: "cli", action: "environment.credentials_changed" });
  });

  it("env:show --json prints the environment with secrets masked", async () => {
    const result = await runCli(["env:show", "staging", "--json"]);
    expect(result.code).toBe(0);
    expectNoSecret(result);
    const view = JSON.parse(result.stdout);
    expect(view).toMatchObject({ baseUrl: "https://api.staging.example.test", clientSecret: { set: true, hint: "set · ends in 9f2a" } });
    expect(Object.keys(view).sort()).toEqual([
      "apiKey",
      "baseUrl",
      "clientId",
      "clientSecret",
      "configured",
      "connectedLocations",
      "dataSourceName",
      "dateTimeStyle",
      "name",
      "updatedAt",
      "updatedBy",
      "uploadHosts",
    ]);
    const text = await runCli(["env:show", "staging"]);
    expect(text.stdout).toMatch(/API key\s+set · ends in c7d5/);
    expect(text.stdout).toMatch(/Date-time form\s+spec/);
    expectNoSecret(text);
  });

  it("env:set refuses a base URL change without re-entered secrets, naming the variables, and changes nothing", async () => {
    const [before] = await testDb.db.select().from(environments).where(eq(environments.name, "staging"));
    const result = await runCli(["env:set", "staging", "--base-url", "https://elsewhere.example.test"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("UPSTREAM_API_KEY");
    expect(result.stderr).toContain("UPSTREAM_CLIENT_SECRET");
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const [after] = await testDb.db.select().from(environments).where(eq(environments.name, "staging"));
    expect(after).toEqual(before);
  });

  it("env:set --service-moved moves the connected locations' tokens to a new base URL, audited; without it they need reconnecting", async () => {
    const secrets = { UPSTREAM_API_KEY: apiKey, UPSTREAM_CLIENT_SECRET: clientSecret };
    const [location] = await testDb.db
      .insert(locations)
      .values({
        name: "Moved salon",
        environment: "staging",
        upstreamLocationId: "moved-1",
        locationTokenEncrypted: "sealed",
        locationTokenOrigin: "https://api.staging.example.test",
      })
      .returning();
    const moved = await runCli(["env:set", "staging", "--base-url", "https://api2.staging.example.test", "--service-moved"], secrets);
    expect(moved.code, moved.stderr).toBe(0);
    const [afterMove] = await testDb.db.select().from(locations).where(eq(locations.id, location!.id));
    expect(afterMove).toMatchObject({ locationTokenOrigin: "https://api2.staging.example.test", attentionReason: null });
    const [audit] = await testDb.db.select().from(auditLog).where(eq(auditLog.action, "environment.location_tokens_moved"));
    expect(audit).toMatchObject({
      actorEmail: "cli",
      details: { from: "https://api.staging.example.test", to: "https://api2.staging.example.test", locations: 1 },
    });

    const notMoved = await runCli(["env:set", "staging", "--base-url", "https://api3.staging.example.test"], secrets);
    expect(notMoved.code, notMoved.stderr).toBe(0);
    const [afterChange] = await testDb.db.select().from(locations).where(eq(locations.id, location!.id));
    expect(afterChange).toMatchObject({
      locationTokenOrigin: "https://api2.staging.example.test",
      attentionReason: expect.stringMatching(/^Reconnect needed/),
    });
    await runCli(["env:set", "staging", "--base-url", "https://api.staging.example.test"], secrets);
    // Its token is a placeholder, not sealed: the rotation test below must not find it.
    await testDb.db.delete(locations).where(eq(locations.id, location!.id));
  });

  it("env:set refuses secrets given as flags", async () => {
    const result = await runCli(["env:set", "staging", "--api-key", apiKey]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/never taken from flags.*UPSTREAM_API_KEY/);
    expect(result.stderr).not.toContain(apiKey);
  });

  it("secrets:rotate --json re-encrypts under the new APP_SECRET_KEY with the old one as previous", async () => {
    const newKey = generateSecretKey();
    const result = await runCli(["secrets:rotate", "--json"], { APP_SECRET_KEY: newKey, APP_SECRET_KEY_PREVIOUS: appSecretKey });
    expect(result.code).toBe(0);
    expectNoSecret(result);
    expect(result.stdout).not.toContain(newKey);
    const newId = loadKeyring(parseConfig({ APP_SECRET_KEY: newKey })).current.id;
    expect(JSON.parse(result.stdout)).toMatchObject({
      currentKeyId: newId,
      reencrypted: { "environments.api_key_encrypted": 1, "environments.client_secret_encrypted": 1 },
    });
    const [row] = await testDb.db.select().from(environments).where(eq(environments.name, "staging"));
    expect(keyIdOf(row!.clientSecretEncrypted!)).toBe(newId);
    // Without the old key: env:show says the value cannot be decrypted instead of crashing.
    const stale = await runCli(["env:show", "staging", "--json"]);
    expect(stale.code).toBe(0);
    expect(JSON.parse(stale.stdout).apiKey).toEqual({ set: true, hint: expect.stringContaining("cannot be decrypted") });
  });
});

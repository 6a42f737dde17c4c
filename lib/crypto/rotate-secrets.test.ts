import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, environments } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { parseConfig } from "@/lib/config/config";
import { systemActorAs } from "@/lib/auth/permissions";
import { getEnvironmentCredentials } from "@/lib/environments/get-environment-credentials";
import { updateEnvironment } from "@/lib/environments/update-environment";
import { environmentSecretContext } from "./encrypted-columns";
import { generateSecretKey, loadKeyring } from "./keyring";
import { keyIdOf, openSecret, sealSecret } from "./secret-box";
import { rotateSecrets, runSecretsRotation } from "./rotate-secrets";

const testDb = await useTestDatabase();
const actor = systemActorAs("ops@example.test");

const secrets = {
  stagingKey: "staging-api-key-7f3a9c1e5b2d",
  stagingSecret: "staging-client-secret-44c0ffee",
  productionKey: "production-api-key-b00b1e5cafe",
  productionSecret: "production-client-secret-deadbeef",
};

/** Every row of every table in every schema of the database, as text. */
async function dumpAllTables(): Promise<string> {
  const tables = (await testDb.sql`
    select table_schema, table_name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`) as unknown as {
    table_schema: string;
    table_name: string;
  }[];
  expect(tables.map((table) => table.table_name)).toContain("environments");
  let dump = "";
  for (const table of tables) {
    const rows = await testDb.sql`select * from ${testDb.sql(table.table_schema)}.${testDb.sql(table.table_name)}`;
    dump += JSON.stringify(rows);
  }
  return dump;
}

async function configureBoth(env: Record<string, string>) {
  Object.assign(process.env, env);
  await updateEnvironment(
    { db: testDb.db, actor },
    {
      name: "staging",
      settings: {
        baseUrl: "https://staging.example.test",
        uploadHosts: ["uploads.staging.example.test"],
        clientId: "client-staging",
        dataSourceName: "LocationSync",
        apiKey: secrets.stagingKey,
        clientSecret: secrets.stagingSecret,
      },
    },
  );
  await updateEnvironment(
    { db: testDb.db, actor },
    {
      name: "production",
      settings: {
        baseUrl: "https://api.example.test",
        uploadHosts: ["uploads.example.test"],
        clientId: "client-production",
        dataSourceName: "LocationSync",
        apiKey: secrets.productionKey,
        clientSecret: secrets.productionSecret,
      },
    },
  );
}

describe("secret rotation", () => {
  it("re-encrypts every value from key A to key B, decrypts them right, and leaves no plaintext in any table", async () => {
    const keyA = generateSecretKey();
    const keyB = generateSecretKey();
    await configureBoth({ APP_SECRET_KEY: keyA, APP_SECRET_KEY_PREVIOUS: "" });
    const ringA = loadKeyring(parseConfig({ APP_SECRET_KEY: keyA }));
    const before = await testDb.db.select().from(environments);
    expect(before.flatMap((row) => [row.apiKeyEncrypted, row.clientSecretEncrypted]).map((value) => keyIdOf(value!))).toEqual(
      Array(4).fill(ringA.current.id),
    );

    // The operator's procedure: new key in APP_SECRET_KEY, the old one in APP_SECRET_KEY_PREVIOUS.
    Object.assign(process.env, { APP_SECRET_KEY: keyB, APP_SECRET_KEY_PREVIOUS: keyA });
    const ringB = loadKeyring(parseConfig(process.env));
    const result = await rotateSecrets(testDb.db, ringB, actor);
    expect(result.reencrypted).toEqual({
      "environments.api_key_encrypted": 2,
      "environments.client_secret_encrypted": 2,
      "locations.location_token_encrypted": 0,
      "alert_channels.webhook_url_encrypted": 0,
    });

    const after = await testDb.db.select().from(environments);
    for (const row of after) {
      expect(keyIdOf(row.apiKeyEncrypted!)).toBe(ringB.current.id);
      expect(keyIdOf(row.clientSecretEncrypted!)).toBe(ringB.current.id);
    }
    // Key B alone now opens everything.
    const ringBOnly = loadKeyring(parseConfig({ APP_SECRET_KEY: keyB }));
    const staging = after.find((row) => row.name === "staging")!;
    expect(openSecret(staging.apiKeyEncrypted!, environmentSecretContext.apiKey("staging"), ringBOnly)).toBe(secrets.stagingKey);
    delete process.env.APP_SECRET_KEY_PREVIOUS;
    const production = await getEnvironmentCredentials(testDb.db, "production");
    expect(production).toMatchObject({ apiKey: secrets.productionKey, clientSecret: secrets.productionSecret });

    const dump = await dumpAllTables();
    expect(dump).toContain(staging.apiKeyEncrypted!);
    for (const plaintext of Object.values(secrets)) expect(dump).not.toContain(plaintext);
    for (const key of [keyA, keyB]) expect(dump).not.toContain(key);

    const [audit] = await testDb.db.select().from(auditLog).where(eq(auditLog.action, "secrets.rotated"));
    expect(audit?.details).toMatchObject({ currentKeyId: ringB.current.id, reencrypted: { "environments.api_key_encrypted": 2 } });

    // A second run has nothing left to do.
    const again = await rotateSecrets(testDb.db, ringB, actor);
    expect(again.reencrypted["environments.api_key_encrypted"]).toBe(0);
    expect(again.unchanged["environments.api_key_encrypted"]).toBe(2);
  });

  it("rolls back entirely when one value cannot be opened", async () => {
    const keyC = generateSecretKey();
    const current = await testDb.db.select().from(environments).orderBy(environments.name);
    // Production's client secret sealed under a key nobody has any more.
    const orphan = sealSecret(
      "lost",
      environmentSecretContext.clientSecret("production"),
      loadKeyring(parseConfig({ APP_SECRET_KEY: generateSecretKey() })),
    );
    await testDb.db.update(environments).set({ clientSecretEncrypted: orphan }).where(eq(environments.name, "production"));
    await expect(
      rotateSecrets(testDb.db, loadKeyring(parseConfig({ APP_SECRET_KEY: keyC, APP_SECRET_KEY_PREVIOUS: process.env.APP_SECRET_KEY })), actor),
    ).rejects.toThrow(/not in APP_SECRET_KEY/);
    const after = await testDb.db.select().from(environments).orderBy(environments.name);
    expect(after.map((row) => row.apiKeyEncrypted)).toEqual(current.map((row) => row.apiKeyEncrypted));
    await testDb.db.update(environments).set({ clientSecretEncrypted: current[0]!.clientSecretEncrypted }).where(eq(environments.name, "production"));
  });

  it("in the embedded default generates a new key, re-encrypts under it and drops the old key from the 0600 key file", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "rotation-"));
    const env = { DATA_DIR: dataDir };
    delete process.env.APP_SECRET_KEY;
    delete process.env.APP_SECRET_KEY_PREVIOUS;
    process.env.DATA_DIR = dataDir;
    await testDb.db.execute(sql`update environments set api_key_encrypted = null, client_secret_encrypted = null, base_url = null`);
    await configureBoth({});
    const oldRing = loadKeyring(parseConfig(env));

    const result = await runSecretsRotation({ db: testDb.db, actor }, { config: parseConfig(env) });
    const newRing = loadKeyring(parseConfig(env));
    expect(newRing.current.id).not.toBe(oldRing.current.id);
    expect(result.currentKeyId).toBe(newRing.current.id);
    expect(result.reencrypted).toEqual({
      "environments.api_key_encrypted": 2,
      "environments.client_secret_encrypted": 2,
      "locations.location_token_encrypted": 0,
      "alert_channels.webhook_url_encrypted": 0,
    });
    expect(result.droppedKeyIds).toEqual([oldRing.current.id]);
    const file = path.join(dataDir, "secret-keys.json");
    expect(JSON.parse(readFileSync(file, "utf8")).previous).toEqual([]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await getEnvironmentCredentials(testDb.db, "staging")).toMatchObject({ apiKey: secrets.stagingKey, clientSecret: secrets.stagingSecret });
    const dump = await dumpAllTables();
    for (const plaintext of Object.values(secrets)) expect(dump).not.toContain(plaintext);
  });
});

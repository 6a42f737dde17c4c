import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locations } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { generateSecretKey } from "@/lib/crypto/keyring";
import { pointEnvironmentAtSandbox } from "@/lib/environments/point-at-sandbox";
import { getLocationRow } from "@/lib/locations/get-location";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { createSandboxFixture, type SandboxFixture } from "@/lib/sandbox/testing";
import { runCli } from "./testing/run-cli";

// The CLI process and this one must share the key that seals the environment's secrets and the token.
process.env.APP_SECRET_KEY = generateSecretKey();
const testDb = await useTestDatabase();
let sandbox: SandboxServer;
let fixture: SandboxFixture;
let locationId: string;

beforeAll(async () => {
  sandbox = await startSandboxServer({ db: testDb.db });
  fixture = await createSandboxFixture(testDb.db);
  await pointEnvironmentAtSandbox(
    { db: testDb.db, actor: systemActor },
    { name: "staging", apiBaseUrl: sandbox.apiBaseUrl, uploadOrigin: sandbox.uploadOrigin, credentials: fixture },
  );
  const [row] = await testDb.db.insert(locations).values({ name: "CLI Salon", upstreamLocationId: fixture.locationId }).returning();
  locationId = row!.id;
});
afterAll(() => sandbox.close());

describe("location:link and location:unlink", () => {
  it("a wrong password is refused with its message and stores nothing", async () => {
    const result = await runCli(testDb.url, ["location:link", locationId, "--email", fixture.owner.email], { stdin: "wrong-password\n" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("The email or password is wrong for the Marketing Automation Service account. Nothing was stored.");
    expect(result.stdout + result.stderr).not.toContain("wrong-password");
    expect((await getLocationRow(testDb.db, locationId)).locationTokenEncrypted).toBeNull();
  });

  it("links with the password from standard input, never printing it, then unlinks", async () => {
    const linked = await runCli(testDb.url, ["location:link", locationId, "--email", fixture.owner.email, "--json"], {
      stdin: `${fixture.owner.password}\n`,
    });
    expect(linked.code).toBe(0);
    expect(JSON.parse(linked.stdout)).toMatchObject({ id: locationId, connected: true, upstreamAccountEmail: fixture.owner.email });
    expect(linked.stdout + linked.stderr).not.toContain(fixture.owner.password);
    expect(await getLocationRow(testDb.db, locationId)).toMatchObject({ connectedByEmail: "cli", upstreamAccountEmail: fixture.owner.email });

    const unlinked = await runCli(testDb.url, ["location:unlink", locationId]);
    expect(unlinked).toMatchObject({ code: 0, stdout: `Disconnected CLI Salon (${locationId})\n` });
    expect((await getLocationRow(testDb.db, locationId)).locationTokenEncrypted).toBeNull();
  });

  it("names a malformed id", async () => {
    const result = await runCli(testDb.url, ["location:unlink", "not-an-id"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('<id>: must be a location id (see location:list), got "not-an-id"');
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, locations } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { runCli } from "./testing/run-cli";

const testDb = await useTestDatabase();
const cli = (args: string[]) => runCli(testDb.url, args);

const addArgs = (name: string, upstreamId: string) => [
  "location:add",
  "--name",
  name,
  "--time-zone",
  "Europe/Berlin",
  "--country",
  "de",
  "--environment",
  "staging",
  "--upstream-id",
  upstreamId,
  "--source-key",
  `source-${upstreamId}`,
];

describe("location:add", () => {
  it("adds a location, prints its id and records the CLI as the actor", async () => {
    const result = await cli([...addArgs("Cli Salon", "cli-upstream-1"), "--automotive", "--sync-time", "09:15"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const id = result.stdout.trim();
    const [row] = await testDb.db.select().from(locations).where(eq(locations.id, id));
    expect(row).toMatchObject({
      name: "Cli Salon",
      timeZone: "Europe/Berlin",
      country: "DE",
      automotive: true,
      syncTime: "09:15",
      locationTokenEncrypted: null,
    });
    const [entry] = await testDb.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(entry).toMatchObject({ action: "location.created", actorEmail: "cli", actorUserId: null });
  });

  it("prints the token-free view with --json", async () => {
    const result = await cli([...addArgs("Cli Json Salon", "cli-upstream-2"), "--json"]);
    expect(result.code).toBe(0);
    const view = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(view).toMatchObject({
      name: "Cli Json Salon",
      upstreamLocationId: "cli-upstream-2",
      connected: false,
      syncTime: "10:00",
      automotive: false,
    });
    expect(view).not.toHaveProperty("locationTokenEncrypted");
  });

  it("refuses invalid input with each flag and reason on stderr, exit code 1, adding nothing", async () => {
    const result = await cli([
      "location:add",
      "--name",
      "Broken",
      "--time-zone",
      "Mars/Olympus",
      "--environment",
      "dev",
      "--upstream-id",
      "has space",
      "--sync-time",
      "19:00",
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("--time-zone: Must be an IANA time zone");
    expect(result.stderr).toContain("--environment: Choose staging or production");
    expect(result.stderr).toContain("--upstream-id: Must not contain spaces");
    expect(result.stderr).toContain("--source-key: Enter the source key");
    expect(result.stderr).toContain("--sync-time: Must be between 09:00 and 18:59");
    expect(await testDb.db.select().from(locations).where(eq(locations.name, "Broken"))).toHaveLength(0);
  });

  it("refuses an upstream location ID that is taken, naming its holder", async () => {
    const result = await cli(addArgs("Cli Duplicate", "cli-upstream-1"));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("already used by location Cli Salon");
  });
});

describe("location:list", () => {
  it("prints every location across pages as JSON, and a table without --json", async () => {
    await testDb.db.insert(locations).values(Array.from({ length: 230 }, (_, index) => ({ name: `Bulk ${String(index).padStart(3, "0")}` })));
    const result = await cli(["location:list", "--json"]);
    expect(result.code).toBe(0);
    const items = JSON.parse(result.stdout) as { name: string; connectionStatus: string }[];
    expect(items).toHaveLength(232);
    expect(items.filter((item) => item.name.startsWith("Bulk ")).map((item) => item.name)).toEqual(
      Array.from({ length: 230 }, (_, index) => `Bulk ${String(index).padStart(3, "0")}`),
    );
    expect(result.stdout).not.toContain("locationTokenEncrypted");

    const searched = await cli(["location:list", "--q", "cli-upstream-2"]);
    expect(searched.code).toBe(0);
    expect(searched.stdout.split("\n")[0]).toMatch(/^ID\s+NAME\s+ENVIRONMENT/);
    expect(searched.stdout).toContain("Cli Json Salon");
    expect(searched.stdout).not.toContain("Bulk");
  });

  it("leaves archived locations out, and lists them alone with --archived", async () => {
    await testDb.db.insert(locations).values({ name: "Cli Archived Salon", archivedAt: new Date() });
    const inUse = await cli(["location:list", "--q", "Cli Archived"]);
    expect(inUse.stdout.trim()).toBe("No locations.");
    const archived = await cli(["location:list", "--archived", "--q", "Cli Archived"]);
    expect(archived.code).toBe(0);
    expect(archived.stdout.split("\n")[1]).toMatch(/^\S+\s+Cli Archived Salon\s+\S+\s+—\s+archived\s/);
    const json = JSON.parse((await cli(["location:list", "--archived", "--json"])).stdout) as { name: string; archived: boolean }[];
    expect(json.map((item) => [item.name, item.archived])).toEqual([["Cli Archived Salon", true]]);
  });
});

describe("location:list output", () => {
  it("shows control, direction and zero-width characters escaped, in the table and in JSON", async () => {
    // Written straight to the table: rows from before input checks, or from another writer, may hold anything.
    const hostile = "Evil \u001b[2J\u001b]0;pwned\u0007 \u202Egnp.exe\u200b \u009b31m";
    await testDb.db.insert(locations).values({ name: hostile, upstreamLocationId: "cli-hostile-\u001b[1m" });

    const table = await cli(["location:list", "--q", "Evil"]);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
    expect(table.stdout).toContain("Evil \\u001b[2J\\u001b]0;pwned\\u0007 \\u202egnp.exe\\u200b \\u009b31m");
    expect(table.stdout).toContain("cli-hostile-\\u001b[1m");

    const json = await cli(["location:list", "--q", "Evil", "--json"]);
    expect(json.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
    expect((JSON.parse(json.stdout) as { name: string }[]).map((item) => item.name)).toEqual([hostile]);
  });
});

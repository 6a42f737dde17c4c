import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { locations, previewRuns } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { runCli } from "./testing/run-cli";

const testDb = await useTestDatabase();
const [sourceKey] = await generateDemoSource(testDb.db, { locations: 1, contacts: 40, years: 1, seed: 3 });
const [location] = await testDb.db
  .insert(locations)
  .values({ name: "CLI Preview Salon", timeZone: "Europe/Berlin", country: "DE", sourceKey })
  .returning();

describe("preview", () => {
  it("prints the valid mapped records of one resource and its issues as JSON", async () => {
    const result = await runCli(testDb.url, ["preview", location!.id, "--resource", "customers", "--json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as {
      counts: Record<string, { valid: number; errors: number }>;
      records: { type: string; record: Record<string, unknown> }[];
      issues: { type: string; code: string; severity: string; field: string }[];
    };
    expect(Object.keys(output.counts)).toEqual(["contact_details"]);
    expect(output.records).toHaveLength(output.counts.contact_details!.valid);
    expect(output.records.every((entry) => entry.type === "contact_details" && typeof entry.record.external_id === "string")).toBe(true);
    expect(output.issues.length).toBeGreaterThan(0);
    expect(output.issues.every((issue) => issue.type === "contact_details")).toBe(true);
    expect(
      output.issues.some((issue) => issue.code === "invalid_phone" && issue.severity === "warning" && issue.field === "mobile_phone_number"),
    ).toBe(true);
  });

  it("prints counts per record type as text", async () => {
    const result = await runCli(testDb.url, ["preview", location!.id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^calendars\s+\d+ rows · \d+ valid/m);
    expect(result.stdout).toMatch(/^appointments\s+\d+ rows · \d+ valid \(\d+ with warnings\) · \d+ errors · [1-9]\d* excluded by rule$/m);
  });

  it("maps every source row again with --rebuild, where a plain run maps only the changed ones", async () => {
    const [other] = await testDb.db
      .insert(locations)
      .values({ name: "CLI Rebuild Salon", timeZone: "Europe/Berlin", country: "DE", sourceKey })
      .returning();
    const latestRun = async () =>
      (await testDb.db.select().from(previewRuns).where(eq(previewRuns.locationId, other!.id)).orderBy(desc(previewRuns.createdAt)).limit(1))[0]!;
    expect((await runCli(testDb.url, ["preview", other!.id])).code).toBe(0);
    expect((await runCli(testDb.url, ["preview", other!.id])).code).toBe(0);
    expect(await latestRun()).toMatchObject({ status: "succeeded", mode: "incremental", rebuild: false });
    const rebuilt = await runCli(testDb.url, ["preview", other!.id, "--rebuild"]);
    expect(rebuilt.stderr).toBe("");
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toMatch(/^contact_details\s+\d+ rows/m);
    expect(await latestRun()).toMatchObject({ status: "succeeded", mode: "full", rebuild: true });
  });

  it("says an unknown location was not found, as sync does, printing nothing of the query it would have run", async () => {
    const result = await runCli(testDb.url, ["preview", "00000000-0000-4000-8000-000000000000"]);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: Location not found.\n",
    });
  });

  it("names an unknown resource", async () => {
    const result = await runCli(testDb.url, ["preview", location!.id, "--resource", "invoices"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--resource: must be one of calendars");
  });
});

import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { runCli } from "./testing/run-cli";

const testDb = await useTestDatabase();
const cli = (args: string[]) => runCli(testDb.url, args);
const countOf = async (table: string, sourceKey: string, counted = "*") =>
  Number((await testDb.sql.unsafe(`select count(${counted}) as count from demo_source.${table} where source_key = $1`, [sourceKey]))[0]!.count);

describe("demo:seed", () => {
  it("generates the locations and prints their source keys, one per line", async () => {
    const result = await cli(["demo:seed", "--locations", "3", "--contacts", "25", "--years", "1", "--seed", "11"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("demo-11-1\ndemo-11-2\ndemo-11-3\n");
    for (const sourceKey of ["demo-11-1", "demo-11-2", "demo-11-3"]) expect(await countOf("customers", sourceKey, "distinct customer_no")).toBe(25);
    expect(await countOf("vehicles", "demo-11-3")).toBeGreaterThan(0);
  });

  it("prints the source keys as JSON with --json, replacing what the keys held", async () => {
    const result = await cli(["demo:seed", "--contacts", "4", "--years", "0", "--seed", "11", "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ sourceKeys: ["demo-11-1"] });
    expect(await countOf("customers", "demo-11-1", "distinct customer_no")).toBe(4);
  });

  it("refuses bad numbers, naming each flag, and generates nothing", async () => {
    const result = await cli(["demo:seed", "--locations", "0", "--contacts", "many", "--years", "1.5", "--seed", "12"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("--locations: must be at least 1");
    expect(result.stderr).toContain("--contacts: must be a number");
    expect(result.stderr).toContain("--years: must be a whole number");
    expect(await countOf("locations", "demo-12-1")).toBe(0);
  });
});

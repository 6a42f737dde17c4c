import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { syncedRecords } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { createFleetLocation } from "@/lib/fleet/testing/fleet-factories";
import { queryRows } from "./raw-sql";
import { vacuumAfterBulkWrite } from "./vacuum-after-bulk-write";

const { db } = await useTestDatabase();

const allVisiblePages = async () =>
  (await queryRows<{ pages: number }>(db, sql`select relallvisible::int as pages from pg_class where relname = 'synced_records'`))[0]!.pages;

describe("vacuumAfterBulkWrite", () => {
  it("vacuums a table only when what was written reaches the threshold, leaving its pages all-visible", async () => {
    const location = await createFleetLocation(db);
    await db.insert(syncedRecords).values(
      Array.from({ length: 500 }, (_, index) => ({
        locationId: location.id,
        recordType: "appointments",
        recordKey: `a${index}`,
        contentHash: "h",
      })),
    );
    expect(await allVisiblePages()).toBe(0);

    expect(await vacuumAfterBulkWrite(db, "synced_records", { rowsWritten: 500, threshold: 1_000 })).toBe(false);
    expect(await allVisiblePages()).toBe(0);

    expect(await vacuumAfterBulkWrite(db, "synced_records", { rowsWritten: 500, threshold: 100 })).toBe(true);
    expect(await allVisiblePages()).toBeGreaterThan(0);
  });
});

describe("autovacuum of the tables every sync rewrites in part", () => {
  it("comes after 10,000 rows changed or inserted, whatever the table's size (migration 0035)", async () => {
    const options = await queryRows<{ table: string; options: string[] }>(
      db,
      sql`select relname as table, reloptions as options from pg_class where relname in ('preview_records', 'synced_records') order by relname`,
    );
    const expected = [
      "autovacuum_vacuum_scale_factor=0",
      "autovacuum_vacuum_threshold=10000",
      "autovacuum_vacuum_insert_scale_factor=0",
      "autovacuum_vacuum_insert_threshold=10000",
    ];
    expect(options).toEqual([
      { table: "preview_records", options: expected },
      { table: "synced_records", options: expected },
    ]);
  });
});

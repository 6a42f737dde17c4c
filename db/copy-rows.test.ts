import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "./testing/test-database";
import { copyRows } from "./copy-rows";

const testDb = await useTestDatabase();
await testDb.sql`create table copied (name text, count integer, flag boolean, tags text[], body jsonb)`;
afterAll(() => testDb.sql`drop table copied`);

describe("copyRows", () => {
  it("stores every value exactly as given, escapes and nulls included", async () => {
    const rows = [
      {
        name: "tab\there, new\nline, cr\r, back\\slash, \\N literally",
        count: 7,
        flag: true,
        tags: ['quote "x"', "back\\slash", "comma,brace{}", ""],
        body: { text: "a\tb\n\\", list: [1, null] },
      },
      { name: null, count: null, flag: false, tags: null, body: null },
      { name: "Zoë 🌍", count: -1, flag: null, tags: [], body: { nested: { deep: "é" } } },
    ];
    await copyRows(testDb.sql, "copied", ["name", "count", "flag", "tags", "body"], rows);
    const stored = await testDb.sql`select name, count, flag, tags, body from copied order by count nulls first`;
    expect(stored.map((row) => ({ ...row }))).toEqual([rows[1], rows[2], rows[0]]);
  });

  it("streams more rows than one write buffer holds", async () => {
    await testDb.sql`truncate copied`;
    const rows = Array.from({ length: 20_000 }, (_, index) => ({
      name: `row ${index} ${"x".repeat(40)}`,
      count: index,
      flag: null,
      tags: null,
      body: null,
    }));
    await copyRows(testDb.sql, "copied", ["name", "count", "flag", "tags", "body"], rows);
    const [summary] = await testDb.sql`select count(*)::int as rows, sum(count)::bigint::text as total from copied`;
    expect(summary).toEqual({ rows: 20_000, total: String((19_999 * 20_000) / 2) });
  });

  it("fails, and does not hang, when the server refuses the copy, in a transaction or not, early or at the last row", async () => {
    await testDb.sql`create table copied_once (name text primary key)`;
    try {
      await copyRows(testDb.sql, "copied_once", ["name"], [{ name: "taken" }]);
      await expect(copyRows(testDb.sql, "copied_once", ["name"], [{ name: "taken" }])).rejects.toMatchObject({ code: "23505" });
      await expect(testDb.sql.begin((tx) => copyRows(tx, "copied_once", ["name"], [{ name: "taken" }]))).rejects.toMatchObject({ code: "23505" });
      const many = Array.from({ length: 30_000 }, (_, index) => ({ name: index === 29_999 ? "taken" : `row ${index} ${"x".repeat(20)}` }));
      await expect(copyRows(testDb.sql, "copied_once", ["name"], many)).rejects.toMatchObject({ code: "23505" });
      // Nothing of a refused copy stays, and the connections go on working.
      expect(await testDb.sql`select count(*)::int as count from copied_once`).toEqual([{ count: 1 }]);
    } finally {
      await testDb.sql`drop table copied_once`;
    }
  });
});

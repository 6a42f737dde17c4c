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

  it("stores rows larger than one write buffer, multi-byte characters included, between small ones", async () => {
    await testDb.sql`truncate copied`;
    const big = "Zoë 🌍\t".repeat(60_000);
    const rows = [
      { name: "small", count: 1, flag: null, tags: null, body: null },
      { name: big, count: 2, flag: null, tags: [big], body: { big } },
      { name: "small again", count: 3, flag: null, tags: null, body: null },
    ];
    await copyRows(testDb.sql, "copied", ["name", "count", "flag", "tags", "body"], rows);
    const stored = await testDb.sql`select name, count, flag, tags, body from copied order by count`;
    expect(stored.map((row) => ({ ...row }))).toEqual(rows);
  });

  it("ends each COPY without waiting for the server's delayed ACK (Nagle off on the app's connections)", async () => {
    await testDb.sql`truncate copied`;
    const rows = Array.from({ length: 500 }, (_, index) => ({
      name: `row ${index} ${"x".repeat(200)}`,
      count: index,
      flag: null,
      tags: null,
      body: null,
    }));
    const started = performance.now();
    // Delayed ACKs hold back each COPY's closing message 40 ms on Linux: 50 COPYs would take at least 2 s.
    for (let copy = 0; copy < 50; copy++) await copyRows(testDb.sql, "copied", ["name", "count", "flag", "tags", "body"], rows);
    expect(performance.now() - started).toBeLessThan(1_500);
    const [summary] = await testDb.sql`select count(*)::int as rows from copied`;
    expect(summary).toEqual({ rows: 25_000 });
  });
});

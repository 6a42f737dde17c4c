import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "./testing/test-database";
import { socketWithoutDelay } from "./client";
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
    await copyRows(testDb.db, "copied", ["name", "count", "flag", "tags", "body"], rows);
    const stored = await testDb.sql`select name, count, flag, tags, body from copied order by count nulls first`;
    expect(stored.map((row) => ({ ...row }))).toEqual([rows[1], rows[2], rows[0]]);
  });

  it("takes a column from where the caller says: a JSON already encoded goes to a jsonb column as it is", async () => {
    await testDb.sql`truncate copied`;
    const rows = [
      { name: "encoded", count: 1, flag: null, tags: null, body: { ignored: true }, json: '{"b":"tab\\there","a":[1]}' },
      { name: "object", count: 2, flag: null, tags: null, body: { kept: true }, json: null },
    ];
    await copyRows(testDb.db, "copied", ["name", "count", "flag", "tags", "body"], rows, { body: (row) => row.json ?? row.body });
    const stored = await testDb.sql`select name, body from copied order by count`;
    expect(stored.map((row) => ({ ...row }))).toEqual([
      { name: "encoded", body: { a: [1], b: "tab\there" } },
      { name: "object", body: { kept: true } },
    ]);
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
    await copyRows(testDb.db, "copied", ["name", "count", "flag", "tags", "body"], rows);
    const [summary] = await testDb.sql`select count(*)::int as rows, sum(count)::bigint::text as total from copied`;
    expect(summary).toEqual({ rows: 20_000, total: String((19_999 * 20_000) / 2) });
  });

  it("fails, and does not hang, when the server refuses the copy, in a transaction or not, early or at the last row", async () => {
    await testDb.sql`create table copied_once (name text primary key)`;
    try {
      await copyRows(testDb.db, "copied_once", ["name"], [{ name: "taken" }]);
      await expect(copyRows(testDb.db, "copied_once", ["name"], [{ name: "taken" }])).rejects.toMatchObject({ code: "23505" });
      await expect(testDb.db.transaction((tx) => copyRows(tx, "copied_once", ["name"], [{ name: "taken" }]))).rejects.toMatchObject({
        code: "23505",
      });
      const many = Array.from({ length: 30_000 }, (_, index) => ({ name: index === 29_999 ? "taken" : `row ${index} ${"x".repeat(20)}` }));
      await expect(copyRows(testDb.db, "copied_once", ["name"], many)).rejects.toMatchObject({ code: "23505" });
      // Nothing of a refused copy stays, and the connections go on working.
      expect(await testDb.sql`select count(*)::int as count from copied_once`).toEqual([{ count: 1 }]);
    } finally {
      await testDb.sql`drop table copied_once`;
    }
  });

  it("stores rows larger than one write buffer, multi-byte characters included, between small ones", async () => {
    await testDb.sql`truncate copied`;
    const big = "Zoë 🌍\t".repeat(60_000);
    const rows = [
      { name: "small", count: 1, flag: null, tags: null, body: null },
      { name: big, count: 2, flag: null, tags: [big], body: { big } },
      { name: "small again", count: 3, flag: null, tags: null, body: null },
    ];
    await copyRows(testDb.db, "copied", ["name", "count", "flag", "tags", "body"], rows);
    const stored = await testDb.sql`select name, count, flag, tags, body from copied order by count`;
    expect(stored.map((row) => ({ ...row }))).toEqual(rows);
  });

  it("opens the app's connections with Nagle's algorithm off, so a COPY's end is not held for the server's delayed ACK", async () => {
    const { port } = new URL(testDb.url);
    const socket = socketWithoutDelay({ host: ["127.0.0.1"], port: [Number(port)], path: false });
    socket.on("error", () => {});
    try {
      // Node keeps the option under an internal symbol until the socket connects.
      const noDelay = Object.getOwnPropertySymbols(socket).find((symbol) => symbol.description === "kSetNoDelay");
      expect(noDelay && (socket as unknown as Record<symbol, unknown>)[noDelay]).toBe(true);
    } finally {
      socket.destroy();
    }
  });
});

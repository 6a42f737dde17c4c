import { describe, expect, it } from "vitest";
import { SqlSyntaxError, toPositionalParameters } from "./named-parameters";

describe("toPositionalParameters", () => {
  it("numbers parameters in order of first use and reuses the number of a repeated name", () => {
    expect(toPositionalParameters("select * from t where a = :source_key and b >= :window_start and c = :source_key")).toMatchObject({
      text: "select * from t where a = $1 and b >= $2 and c = $1",
      names: ["source_key", "window_start"],
    });
  });

  it("leaves casts alone, also right after a parameter", () => {
    expect(toPositionalParameters("select x::text, :window_start::timestamp, y :: int")).toMatchObject({
      text: "select x::text, $1::timestamp, y :: int",
      names: ["window_start"],
    });
  });

  it("skips string literals, escape strings, dollar-quoted strings and quoted identifiers", () => {
    const sql = `select ':a', 'it''s :b', E'\\':c', $$:d$$, $tag$ :e $x$ $tag$, "col:f", "say ""x:g""" from t where k = :key`;
    expect(toPositionalParameters(sql)).toMatchObject({ text: sql.replace(":key", "$1"), names: ["key"] });
  });

  it("skips line and nested block comments", () => {
    const sql = "select 1 -- not :this\n/* nor :that /* nested :one */ still :inside */ where a = :real";
    expect(toPositionalParameters(sql)).toMatchObject({ text: sql.replace(":real", "$1"), names: ["real"] });
  });

  it("keeps a colon that starts no name (array slices, odd spacing)", () => {
    expect(toPositionalParameters("select a[1:2], b[:n], c : d")).toMatchObject({ text: "select a[1:2], b[$1], c : d", names: ["n"] });
  });

  it("treats a name's end at the first character that cannot be part of it", () => {
    expect(toPositionalParameters("(:a,:b_2);:c")).toMatchObject({ text: "($1,$2);$3", names: ["a", "b_2", "c"] });
  });

  it("refuses positional parameters and unterminated quotes or comments", () => {
    expect(() => toPositionalParameters("select $1")).toThrow(SqlSyntaxError);
    expect(() => toPositionalParameters("select 'open")).toThrow(/unterminated string literal/);
    expect(() => toPositionalParameters('select "open')).toThrow(/unterminated quoted identifier/);
    expect(() => toPositionalParameters("select /* open")).toThrow(/unterminated block comment/);
    expect(() => toPositionalParameters("select $q$ open")).toThrow(/unterminated dollar-quoted/);
  });

  it("does not take a dollar inside an identifier for a quote", () => {
    expect(toPositionalParameters("select a$b$ from t where x = :x")).toMatchObject({ text: "select a$b$ from t where x = $1", names: ["x"] });
  });

  it("finds the ORDER BY that ends the statement, where what counts the rows may leave it out", () => {
    const orderOf = (sql: string) => {
      const { text, orderByAt } = toPositionalParameters(sql);
      return orderByAt === null ? null : text.slice(orderByAt);
    };
    expect(orderOf("select a.id from a where a.k = :source_key\norder by a.id\n-- done")).toBe("order by a.id\n-- done");
    expect(orderOf("select x from (select x from t order by x) s ORDER  BY s.x desc;")).toBe("ORDER  BY s.x desc;");
    // Inside parentheses (a window, an aggregate, a subquery), a string, a comment or a quoted name: not the statement's.
    expect(orderOf("select row_number() over (order by id), string_agg(x, ',' order by x) from t")).toBeNull();
    expect(orderOf("select 'order by x' as a, \"order\" from t -- order by x\n/* order by y */")).toBeNull();
    expect(orderOf("select order_no, border from t")).toBeNull();
    // An ORDER BY that chooses rows, or names a parameter, stays.
    expect(orderOf("select id from t order by id limit 10")).toBeNull();
    expect(orderOf("select id from t order by id offset 5")).toBeNull();
    expect(orderOf("select id from t order by id fetch first 3 rows only")).toBeNull();
    expect(orderOf("select id from t order by id for update")).toBeNull();
    expect(orderOf("select id from t order by id <-> :source_key")).toBeNull();
    // DISTINCT ON keeps the first row of each group in that order (plain DISTINCT is left alone too).
    expect(orderOf("select distinct on (a.id) a.id, a.starts_at from a order by a.id, a.version desc")).toBeNull();
    expect(orderOf("select DISTINCT a.id from a order by a.id")).toBeNull();
    expect(orderOf("select a.id from a where a.id in (select distinct b.id from b) order by a.id")).toBe("order by a.id");
    // A later ORDER BY at the top replaces an earlier one (an earlier LIMIT belongs to a subquery's end).
    expect(orderOf("select id from t where id in (select id from u order by id limit 1) order by id")).toBe("order by id");
  });
});

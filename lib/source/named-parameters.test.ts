import { describe, expect, it } from "vitest";
import { SqlSyntaxError, toPositionalParameters } from "./named-parameters";

describe("toPositionalParameters", () => {
  it("numbers parameters in order of first use and reuses the number of a repeated name", () => {
    expect(toPositionalParameters("select * from t where a = :source_key and b >= :window_start and c = :source_key")).toEqual({
      text: "select * from t where a = $1 and b >= $2 and c = $1",
      names: ["source_key", "window_start"],
    });
  });

  it("leaves casts alone, also right after a parameter", () => {
    expect(toPositionalParameters("select x::text, :window_start::timestamp, y :: int")).toEqual({
      text: "select x::text, $1::timestamp, y :: int",
      names: ["window_start"],
    });
  });

  it("skips string literals, escape strings, dollar-quoted strings and quoted identifiers", () => {
    const sql = `select ':a', 'it''s :b', E'\\':c', $$:d$$, $tag$ :e $x$ $tag$, "col:f", "say ""x:g""" from t where k = :key`;
    expect(toPositionalParameters(sql)).toEqual({ text: sql.replace(":key", "$1"), names: ["key"] });
  });

  it("skips line and nested block comments", () => {
    const sql = "select 1 -- not :this\n/* nor :that /* nested :one */ still :inside */ where a = :real";
    expect(toPositionalParameters(sql)).toEqual({ text: sql.replace(":real", "$1"), names: ["real"] });
  });

  it("keeps a colon that starts no name (array slices, odd spacing)", () => {
    expect(toPositionalParameters("select a[1:2], b[:n], c : d")).toEqual({ text: "select a[1:2], b[$1], c : d", names: ["n"] });
  });

  it("treats a name's end at the first character that cannot be part of it", () => {
    expect(toPositionalParameters("(:a,:b_2);:c")).toEqual({ text: "($1,$2);$3", names: ["a", "b_2", "c"] });
  });

  it("refuses positional parameters and unterminated quotes or comments", () => {
    expect(() => toPositionalParameters("select $1")).toThrow(SqlSyntaxError);
    expect(() => toPositionalParameters("select 'open")).toThrow(/unterminated string literal/);
    expect(() => toPositionalParameters('select "open')).toThrow(/unterminated quoted identifier/);
    expect(() => toPositionalParameters("select /* open")).toThrow(/unterminated block comment/);
    expect(() => toPositionalParameters("select $q$ open")).toThrow(/unterminated dollar-quoted/);
  });

  it("does not take a dollar inside an identifier for a quote", () => {
    expect(toPositionalParameters("select a$b$ from t where x = :x")).toEqual({ text: "select a$b$ from t where x = $1", names: ["x"] });
  });
});

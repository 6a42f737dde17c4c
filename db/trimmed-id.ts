/**
 * The white space JavaScript's trim() takes off an id (the mapping trims ids: lib/mapping/normalisers/identifier.ts),
 * as one string for SQL's btrim(): an id's end (idEndOf) is the same for every spelling of it.
 */
export const idWhiteSpace =
  "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";

/** idWhiteSpace as a SQL string literal of ASCII characters (E'\u0009…'), read by a UTF-8 server. */
const idWhiteSpaceLiteral = `E'${[...idWhiteSpace].map((char) => `\\u${char.codePointAt(0)!.toString(16).padStart(4, "0")}`).join("")}'`;

/**
 * SQL for the text `id` trimmed as the mapping trims it (JavaScript's trim()), "" for none: what the SQL source reader
 * re-reads rows by and takes their id ends of (lib/source/sql-source-reader.ts), and what the demo source indexes
 * (db/schema/demo-source.ts). For a UTF-8 server: another cannot read the literal.
 */
export const trimmedIdSql = (id: string): string => `coalesce(btrim(${id}, ${idWhiteSpaceLiteral}), '')`;

// `:name` parameters in SQL files → PostgreSQL's positional `$1`, `$2`, … A small tokenizer, so a
// colon inside a string, a quoted identifier, a comment or a `::` cast is left alone.

export interface PositionalQuery {
  /** The SQL with `$n` in place of each `:name`; the same name always gets the same number. */
  text: string;
  /** names[n - 1] is the parameter behind `$n`. */
  names: string[];
  /**
   * Where in `text` the statement's own ORDER BY starts, when it ends the statement and only orders (no LIMIT, OFFSET,
   * FETCH, FOR or parameter after it, no DISTINCT before it): a count or a grouping around the query can leave it out.
   * Null otherwise.
   */
  orderByAt: number | null;
}

/** Words after a statement's ORDER BY that make it choose rows, not only order them. */
const choosingWords = new Set(["limit", "offset", "fetch", "for"]);

export class SqlSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SqlSyntaxError";
  }
}

const identifierStart = /[A-Za-z_]/;
const identifierPart = /[A-Za-z0-9_]/;
const dollarQuoteTag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/;

/** The index just past a quoted run that starts at `start` with `quote`; a doubled quote stays inside. */
function endOfQuoted(sql: string, start: number, quote: "'" | '"', backslashEscapes: boolean): number {
  let index = start + 1;
  while (index < sql.length) {
    const character = sql[index];
    if (backslashEscapes && character === "\\") index += 2;
    else if (character === quote && sql[index + 1] === quote) index += 2;
    else if (character === quote) return index + 1;
    else index++;
  }
  throw new SqlSyntaxError(`unterminated ${quote === "'" ? "string literal" : "quoted identifier"} starting at offset ${start}`);
}

/** Block comments nest in PostgreSQL. */
function endOfBlockComment(sql: string, start: number): number {
  let depth = 0;
  let index = start;
  while (index < sql.length) {
    if (sql.startsWith("/*", index)) {
      depth++;
      index += 2;
    } else if (sql.startsWith("*/", index)) {
      depth--;
      index += 2;
      if (depth === 0) return index;
    } else index++;
  }
  throw new SqlSyntaxError(`unterminated block comment starting at offset ${start}`);
}

const isIdentifierCharacter = (character: string | undefined) => character !== undefined && identifierPart.test(character);

export function toPositionalParameters(sql: string): PositionalQuery {
  const names: string[] = [];
  let text = "";
  let index = 0;
  let depth = 0;
  let orderByAt: number | null = null;
  let orderOnly = false;
  // DISTINCT ON keeps the first row of each group in the statement's order: there the ORDER BY chooses rows too.
  let distinct = false;
  const copyUntil = (end: number) => {
    text += sql.slice(index, end);
    index = end;
  };
  while (index < sql.length) {
    const character = sql[index]!;
    const previous = sql[index - 1];
    if (character === "'") {
      const escapeString = (previous === "E" || previous === "e") && !isIdentifierCharacter(sql[index - 2]);
      copyUntil(endOfQuoted(sql, index, "'", escapeString));
    } else if (character === '"') {
      copyUntil(endOfQuoted(sql, index, '"', false));
    } else if (sql.startsWith("--", index)) {
      const lineEnd = sql.indexOf("\n", index);
      copyUntil(lineEnd === -1 ? sql.length : lineEnd);
    } else if (sql.startsWith("/*", index)) {
      copyUntil(endOfBlockComment(sql, index));
    } else if (character === "$" && !isIdentifierCharacter(previous)) {
      const tag = dollarQuoteTag.exec(sql.slice(index))?.[0];
      if (tag) {
        const close = sql.indexOf(tag, index + tag.length);
        if (close === -1) throw new SqlSyntaxError(`unterminated dollar-quoted string ${tag} starting at offset ${index}`);
        copyUntil(close + tag.length);
      } else if (/\d/.test(sql[index + 1] ?? "")) {
        throw new SqlSyntaxError(`positional parameter at offset ${index}: use named parameters (:source_key) instead`);
      } else copyUntil(index + 1);
    } else if (character === ":" && sql[index + 1] === ":") {
      copyUntil(index + 2);
    } else if (character === ":" && identifierStart.test(sql[index + 1] ?? "")) {
      let end = index + 1;
      while (isIdentifierCharacter(sql[end])) end++;
      const name = sql.slice(index + 1, end);
      if (!names.includes(name)) names.push(name);
      // Left out with the ORDER BY, a parameter would leave its value without a place.
      if (orderByAt !== null) orderOnly = false;
      text += `$${names.indexOf(name) + 1}`;
      index = end;
    } else if (identifierStart.test(character) && !isIdentifierCharacter(previous) && previous !== "$") {
      let end = index + 1;
      while (isIdentifierCharacter(sql[end])) end++;
      const word = sql.slice(index, end).toLowerCase();
      if (depth === 0 && word === "distinct") distinct = true;
      if (depth === 0 && word === "order" && /^\s+by\b/i.test(sql.slice(end))) {
        orderByAt = text.length;
        orderOnly = true;
      } else if (depth === 0 && orderByAt !== null && choosingWords.has(word)) orderOnly = false;
      copyUntil(end);
    } else {
      if (character === "(") depth++;
      else if (character === ")") depth--;
      copyUntil(index + 1);
    }
  }
  return { text, names, orderByAt: orderOnly && !distinct ? orderByAt : null };
}

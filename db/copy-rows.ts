import { once } from "node:events";
import { open } from "node:fs/promises";
import type { DatabaseOrTransaction } from "./client";
import { clientOf } from "./raw-sql";

export type CopyValue = string | number | boolean | null | readonly string[] | Record<string, unknown>;

// COPY's text format: one line per row, columns split by tabs, \N for null; backslash, tab, newline and carriage return escaped.
const specialCharacter = /[\\\t\n\r]/;
const specialCharacters = /[\\\t\n\r]/g;
const escapes: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };
// Most values hold none: testing first spares the replace its callback set-up.
const escapeText = (text: string) => (specialCharacter.test(text) ? text.replace(specialCharacters, (character) => escapes[character]!) : text);

// A text[] literal: every element quoted, with " and \ escaped inside the quotes.
const arrayLiteral = (values: readonly string[]) => `{${values.map((value) => `"${value.replace(/["\\]/g, "\\$&")}"`).join(",")}}`;

function copyField(value: CopyValue): string {
  if (value === null) return "\\N";
  if (typeof value === "string") return escapeText(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return escapeText(arrayLiteral(value as readonly string[]));
  return escapeText(JSON.stringify(value));
}

/** What a row gives for a column, where it is not the row's property of that name (a value already encoded, say). */
export type ColumnValues<Row> = { [Column in keyof Row & string]?: (row: Row) => CopyValue };

function copyLine<Row>(row: Row, values: readonly ((row: Row) => CopyValue)[]): string {
  let line = copyField(values[0]!(row));
  for (let index = 1; index < values.length; index++) line += `\t${copyField(values[index]!(row))}`;
  return `${line}\n`;
}

const chunkBytes = 256 * 1024;

/**
 * COPY text lines encoded straight into 256 KB buffers as they are added (half the client's time of joining them into
 * strings first); the buffers live outside the JavaScript heap.
 */
export class CopyLines {
  private filled: Buffer[] = [];
  private chunk = Buffer.allocUnsafe(chunkBytes);
  private used = 0;
  /** Lines added. */
  count = 0;

  /** One line of fields, in the COPY's column order. */
  add(fields: readonly CopyValue[]): void {
    let line = copyField(fields[0] ?? null);
    for (let index = 1; index < fields.length; index++) line += `\t${copyField(fields[index]!)}`;
    this.addLine(`${line}\n`);
  }

  addLine(line: string): void {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    const mostBytes = line.length * 3;
    if (this.used + mostBytes > this.chunk.length) {
      if (this.used) this.filled.push(this.chunk.subarray(0, this.used));
      this.chunk = Buffer.allocUnsafe(Math.max(chunkBytes, mostBytes));
      this.used = 0;
    }
    this.used += this.chunk.write(line, this.used);
    this.count += 1;
  }

  /** The buffers filled since the last take. */
  takeFilled(): Buffer[] {
    const filled = this.filled;
    this.filled = [];
    return filled;
  }

  /** Every buffer not yet taken, the last one as far as it is filled; the lines stay (a retried write reads them again). */
  all(): Buffer[] {
    return this.used ? [...this.filled, this.chunk.subarray(0, this.used)] : [...this.filled];
  }
}

async function openCopy(db: DatabaseOrTransaction, table: string, columns: readonly string[]) {
  const sql = clientOf(db);
  const query = sql`copy ${sql(table)} (${sql(columns as string[])}) from stdin`;
  const refusal = refusalOf(query);
  const writable = await query.writable();
  return {
    async write(chunks: readonly Buffer[]): Promise<void> {
      for (const chunk of chunks) if (!writable.write(chunk)) await Promise.race([once(writable, "drain"), refusal]);
    },
    /** Writes `chunk` and waits until it has gone to the socket: the caller may then fill it again. */
    async writeOut(chunk: Buffer): Promise<void> {
      const written = new Promise<void>((resolve, reject) => writable.write(chunk, (error) => (error ? reject(error) : resolve())));
      await Promise.race([written, refusal]);
    },
    async end(): Promise<void> {
      writable.end();
      await Promise.race([once(writable, "finish"), refusal]);
    },
  };
}

/**
 * Writes rows with COPY … FROM STDIN in one statement: the server parses a text stream
 * instead of a 65,535-parameter insert, and the client builds a string per row, not a parameter list.
 */
export async function copyRows<Row extends { [Column in keyof Row]: CopyValue }>(
  db: DatabaseOrTransaction,
  table: string,
  columns: readonly (keyof Row & string)[],
  rows: readonly Row[],
  valuesOf: ColumnValues<Row> = {},
): Promise<void> {
  if (!rows.length) return;
  const lineOf = copyLineEncoder(columns, valuesOf);
  const copy = await openCopy(db, table, columns);
  const lines = new CopyLines();
  for (const row of rows) {
    lines.addLine(lineOf(row));
    const filled = lines.takeFilled();
    if (filled.length) await copy.write(filled);
  }
  await copy.write(lines.all());
  await copy.end();
}

/** A row's COPY text line, as copyRows writes it: `columns` in order, each from `valuesOf` or the row's property. */
export function copyLineEncoder<Row extends { [Column in keyof Row]: CopyValue }>(
  columns: readonly (keyof Row & string)[],
  valuesOf: ColumnValues<Row> = {},
): (row: Row) => string {
  const values = columns.map((column) => valuesOf[column] ?? ((row: Row) => row[column]));
  return (row) => copyLine(row, values);
}

/**
 * Writes a file of COPY text lines (as CopyLines encodes them) with COPY … FROM STDIN through one buffer, filled again
 * once its bytes went to the socket: a fresh buffer per read would leave the garbage collector hundreds of megabytes
 * outside the heap to find (RSS grew by ~45 MB storing 200,000 records).
 */
export async function copyFile(db: DatabaseOrTransaction, table: string, columns: readonly string[], path: string): Promise<void> {
  const copy = await openCopy(db, table, columns);
  const file = await open(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (!bytesRead) break;
      await copy.writeOut(buffer.subarray(0, bytesRead));
    }
  } finally {
    await file.close();
  }
  await copy.end();
}

/** Writes lines already encoded (CopyLines) with COPY … FROM STDIN. */
export async function copyLines(db: DatabaseOrTransaction, table: string, columns: readonly string[], lines: CopyLines): Promise<void> {
  if (!lines.count) return;
  const copy = await openCopy(db, table, columns);
  await copy.write(lines.all());
  await copy.end();
}

/**
 * Rejects when the server refuses the COPY (a unique key taken, a malformed value). postgres.js resolves the query with
 * the stream as the copy starts, and a refusal after that reaches only the query's own `reject`, never the stream,
 * which then never finishes: the refusal is taken from there.
 */
function refusalOf(query: object): Promise<never> {
  const pending = query as { reject: (error: unknown) => void };
  const reject = pending.reject;
  const refusal = new Promise<never>((_, refuse) => {
    pending.reject = (error) => {
      refuse(error);
      reject(error);
    };
  });
  refusal.catch(() => {});
  return refusal;
}

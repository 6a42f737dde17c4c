import { readFile } from "node:fs/promises";
import path from "node:path";
import { SqlSyntaxError, toPositionalParameters } from "./named-parameters";
import type { SourceReadParams } from "./source-reader";
import type { SourceResource } from "./source-rows";

/** The named parameters a source SQL file may use. */
export const sourceParameterNames = ["source_key", "window_start", "window_end"] as const;
export type SourceParameterName = (typeof sourceParameterNames)[number];

/** One file per resource, plus fingerprint.sql. */
export type SourceQueryName = SourceResource | "fingerprint";

export interface SourceQuery {
  file: string;
  /** The SQL with positional parameters. */
  text: string;
  /**
   * The same without the ORDER BY that ends it, for what counts or groups its rows (the order costs a sort or an
   * ordered scan of every row: 0.5 s of a million appointments counted, 0.06 s without). The text itself if it has none.
   */
  unorderedText: string;
  /** The named parameter behind each `$n`, in order. */
  parameters: SourceParameterName[];
}

/** A source SQL file that cannot be read, does not parse or does not return what the contract says. */
export class SourceQueryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SourceQueryError";
  }
}

/** Where the SQL files live unless configured: lib/source/sql of the app. */
export function defaultSqlDirectory(): string {
  return path.join(process.cwd(), "lib", "source", "sql");
}

const isSourceParameter = (name: string): name is SourceParameterName => (sourceParameterNames as readonly string[]).includes(name);

export async function loadSourceQuery(directory: string, name: SourceQueryName): Promise<SourceQuery> {
  const file = path.join(directory, `${name}.sql`);
  let sql: string;
  try {
    sql = await readFile(file, "utf8");
  } catch (error) {
    throw new SourceQueryError(`${file}: cannot be read (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  let positional;
  try {
    positional = toPositionalParameters(sql);
  } catch (error) {
    if (error instanceof SqlSyntaxError) throw new SourceQueryError(`${file}: ${error.message}`, { cause: error });
    throw error;
  }
  const unknown = positional.names.filter((parameter) => !isSourceParameter(parameter));
  if (unknown.length) {
    throw new SourceQueryError(
      `${file}: unknown parameter ${unknown.map((parameter) => `:${parameter}`).join(", ")} (allowed: ${sourceParameterNames.map((parameter) => `:${parameter}`).join(", ")})`,
    );
  }
  const unorderedText = positional.orderByAt === null ? positional.text : positional.text.slice(0, positional.orderByAt);
  return { file, text: positional.text, unorderedText, parameters: positional.names.filter(isSourceParameter) };
}

/** The values for a query's `$1…$n`, from the read's parameters. */
export function parameterValues(query: SourceQuery, params: SourceReadParams): (string | null)[] {
  const valueOf: Record<SourceParameterName, string | null> = {
    source_key: params.sourceKey,
    window_start: params.windowStart ?? null,
    window_end: params.windowEnd ?? null,
  };
  return query.parameters.map((parameter) => valueOf[parameter]);
}

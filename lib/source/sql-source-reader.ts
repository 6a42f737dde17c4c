import postgres from "postgres";
import { compareColumns } from "./source-columns";
import { defaultSqlDirectory, loadSourceQuery, parameterValues, SourceQueryError, type SourceQuery, type SourceQueryName } from "./source-queries";
import type { SourceReadParams, SourceReader } from "./source-reader";
import type { SourceResource, SourceRowOf } from "./source-rows";

export interface SqlSourceReaderOptions {
  /** The management system's PostgreSQL. */
  url: string;
  /** Folder of the resource .sql files; default lib/source/sql. */
  sqlDirectory?: string;
  /** Connections to the source at most (default 2: a reader streams one resource at a time). */
  maxConnections?: number;
}

export const defaultBatchSize = 2000;

/** Reads a location's source through SQL files, each read in a read-only transaction, streamed with a cursor. */
export function createSqlSourceReader(options: SqlSourceReaderOptions): SourceReader {
  const sql = postgres(options.url, { max: options.maxConnections ?? 2, onnotice: () => {}, connection: { application_name: "location-sync-source" } });
  const directory = options.sqlDirectory ?? defaultSqlDirectory();
  const loaded = new Map<SourceQueryName, Promise<SourceQuery>>();
  const queryOf = (name: SourceQueryName) => {
    let query = loaded.get(name);
    if (!query) {
      query = loadSourceQuery(directory, name);
      // A failed load is not kept: fixing the file is enough, no restart needed.
      query.catch(() => loaded.delete(name));
      loaded.set(name, query);
    }
    return query;
  };

  return {
    read<R extends SourceResource>(resource: R, params: SourceReadParams, readOptions?: { batchSize?: number }): AsyncIterable<SourceRowOf[R][]> {
      const batchSize = readOptions?.batchSize ?? defaultBatchSize;
      if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a whole number of at least 1, got ${batchSize}`);
      return readBatches<R>(sql, resource, queryOf(resource), params, batchSize);
    },

    async fingerprint(sourceKey: string): Promise<string> {
      const query = await queryOf("fingerprint");
      const rows = await withQueryErrors(query, () => sql.begin("read only", (transaction) => transaction.unsafe(query.text, parameterValues(query, { sourceKey }))));
      const fingerprint: unknown = rows[0]?.fingerprint;
      if (typeof fingerprint !== "string") throw new SourceQueryError(`${query.file}: must return one row with a text column "fingerprint"`);
      return fingerprint;
    },

    close: () => sql.end({ timeout: 5 }),
  };
}

async function* readBatches<R extends SourceResource>(sql: postgres.Sql, resource: R, pendingQuery: Promise<SourceQuery>, params: SourceReadParams, batchSize: number): AsyncGenerator<SourceRowOf[R][]> {
  const query = await pendingQuery;
  const values = parameterValues(query, params);
  const connection = await sql.reserve();
  try {
    await connection.unsafe("begin read only");
    const statement = await withQueryErrors(query, () => connection.unsafe(query.text, values).describe());
    assertContractColumns(query, resource, statement.columns.map((column) => column.name));
    const cursor = connection.unsafe(query.text, values).cursor(batchSize);
    const iterator = cursor[Symbol.asyncIterator]();
    try {
      while (true) {
        const next = await withQueryErrors(query, () => iterator.next());
        if (next.done) break;
        // The columns are the contract's (checked above); their values are the mapping's to judge.
        yield [...next.value] as unknown as SourceRowOf[R][];
      }
    } finally {
      await iterator.return?.();
    }
  } finally {
    // Read-only: rolling back and committing are the same, and rollback also ends an aborted transaction.
    await connection.unsafe("rollback").catch(() => {});
    connection.release();
  }
}

function assertContractColumns(query: SourceQuery, resource: SourceResource, columns: string[]) {
  const { missing, extra } = compareColumns(resource, columns);
  if (!missing.length && !extra.length) return;
  const problems = [missing.length ? `missing ${missing.join(", ")}` : null, extra.length ? `extra ${extra.join(", ")}` : null].filter(Boolean).join("; ");
  throw new SourceQueryError(`${query.file}: the columns differ from the ${resource} contract (lib/source/source-rows.ts): ${problems}`);
}

/** Names the file in a database error, so an engineer knows which query to fix. */
async function withQueryErrors<T>(query: SourceQuery, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof postgres.PostgresError) throw new SourceQueryError(`${query.file}: ${error.message}`, { cause: error });
    throw error;
  }
}

/** The reader of the configured source: SOURCE_DATABASE_URL, else the app's own database (the demo_source schema). */
export function sourceReaderFromEnvironment(): SourceReader {
  const url = process.env.SOURCE_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) throw new Error("Neither SOURCE_DATABASE_URL nor DATABASE_URL is set: no source to read.");
  return createSqlSourceReader({ url, sqlDirectory: process.env.SOURCE_SQL_DIRECTORY || undefined });
}

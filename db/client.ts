import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import net from "node:net";
import postgres from "postgres";
import { getConfig } from "@/lib/config/config";
import * as schema from "./schema";

export type Database = PostgresJsDatabase<typeof schema>;
/** A database handle or an open transaction: query functions accept either. */
export type DatabaseTransaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type DatabaseOrTransaction = Database | DatabaseTransaction;

export interface DatabaseConnection {
  db: Database;
  sql: postgres.Sql;
  close: () => Promise<void>;
}

interface SocketTarget {
  host: string[];
  port: number[];
  path: string | false;
}

/**
 * The server's socket with Nagle's algorithm off, as libpq, pgjdbc and npgsql open theirs (postgres.js leaves it on).
 * With it on, each COPY's closing message waits behind its data for the server's delayed ACK, 40 ms on Linux: a
 * preview batch (2,000 rows, a COPY of records and one of issues) lost 40 µs a row. postgres.js writes while the socket connects (Node queues the writes) and times the
 * connection out until the server is ready. One host only (the app names one).
 */
export function socketWithoutDelay({ host, port, path }: SocketTarget): net.Socket {
  return path ? net.connect({ path }) : net.connect({ host: host[0], port: port[0]!, noDelay: true });
}

export function connectDatabase(url: string, options: { max?: number } = {}): DatabaseConnection {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: { application_name: "location-sync" },
    // Documented (postgres.js README, "Custom socket") but missing from its types.
    ...({ socket: socketWithoutDelay } as object),
  });
  return { db: drizzle(sql, { schema }), sql, close: () => sql.end({ timeout: 5 }) };
}

/** The connection shape of a handle (for code that still needs its postgres.js client: cursors, COPY). Closing it closes nothing. */
export function connectionOf(db: Database): DatabaseConnection {
  return { db, sql: (db as unknown as { session: { client: postgres.Sql } }).session.client, close: async () => {} };
}

const globalForDb = globalThis as unknown as { locationSyncDb?: DatabaseConnection };

/**
 * The process-wide connection. `DATABASE_URL` is set by the operator, or by
 * lib/runtime when it started the embedded server before anything else ran.
 */
export function getDatabase(): Database {
  return getConnection().db;
}

/**
 * Connections the process may open. A sync session holds up to two for as long as it runs (its preview's transaction
 * and the cursor beside it that compares ids, or a recording's transaction while the next upload streams) and needs a
 * third for a moment (progress, lease renewal): with fewer, sessions holding theirs can wait for each other for ever.
 * The web requests and the other jobs (one at a time each) keep the ten of a process that runs no sessions.
 */
export function processPoolSize(workerConcurrency: number): number {
  return 10 + 3 * workerConcurrency;
}

export function getConnection(): DatabaseConnection {
  if (!globalForDb.locationSyncDb) {
    const config = getConfig();
    const url = config.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start the app through lib/runtime (npm start) or set it.");
    globalForDb.locationSyncDb = connectDatabase(url, { max: processPoolSize(config.SYNC_WORKER_CONCURRENCY) });
  }
  return globalForDb.locationSyncDb;
}

export async function closeDatabase(): Promise<void> {
  const connection = globalForDb.locationSyncDb;
  globalForDb.locationSyncDb = undefined;
  await connection?.close();
}

import { PgDialect } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import type postgres from "postgres";
import type { DatabaseOrTransaction, DatabaseTransaction } from "./client";

// Raw SQL goes through drizzle's `sql` on the one handle (a database or an open transaction). What drizzle cannot
// do itself (server-side cursors, COPY) reaches the postgres.js client under the same handle here, and only here.

const dialect = new PgDialect();

/** The rows of a raw query. */
export async function queryRows<Row>(db: DatabaseOrTransaction, query: SQL): Promise<Row[]> {
  return [...(await db.execute(query))] as Row[];
}

/** Whether the handle is an open transaction (drizzle's transactions can roll back; the database cannot). */
export function isTransaction(db: DatabaseOrTransaction): db is DatabaseTransaction {
  return "rollback" in db;
}

/** The postgres.js client (or transaction) under a drizzle handle. */
export function clientOf(db: DatabaseOrTransaction): postgres.Sql | postgres.TransactionSql {
  return (db as unknown as { session: { client: postgres.Sql | postgres.TransactionSql } }).session.client;
}

/** A query's rows in batches of `batchSize`, read with a server-side cursor: memory holds one batch. */
export function cursorRows<Row>(db: DatabaseOrTransaction, query: SQL, batchSize: number): AsyncIterable<Row[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return clientOf(db)
    .unsafe(text, params as postgres.ParameterOrJSON<never>[])
    .cursor(batchSize) as AsyncIterable<Row[]>;
}

/** A handle as pg-boss's database: a job sent through it is inserted in the handle's transaction (sent if, and only if, it commits). */
export function asJobQueueDatabase(db: DatabaseOrTransaction): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } {
  return {
    executeSql: async (text, values = []) => ({ rows: [...(await clientOf(db).unsafe(text, values as postgres.ParameterOrJSON<never>[]))] }),
  };
}

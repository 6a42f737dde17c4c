import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";

/** Every row of every table in every schema (pg-boss and sandbox included) as text, for "this secret is nowhere" checks. */
export async function databaseAsText(db: DatabaseOrTransaction): Promise<string> {
  const tables = await db.execute<{ schema: string; name: string }>(sql`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`);
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await db.execute<{ row: string }>(sql`select t::text as row from ${sql.identifier(table.schema)}.${sql.identifier(table.name)} t`);
    for (const { row } of rows) parts.push(`${table.schema}.${table.name}: ${row}`);
  }
  return parts.join("\n");
}

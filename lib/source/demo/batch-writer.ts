import { getTableColumns, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { DatabaseOrTransaction } from "@/db/client";

export interface BatchWriter<Row> {
  /** Queues a row; writes the queue as one insert when it is full. */
  push(row: Row): Promise<void>;
  /** Writes what is queued. */
  flush(): Promise<void>;
}

/**
 * Inserts rows in batches of `batchSize`, so a large data set never sits in memory at once. A batch
 * travels as one JSON parameter (json_populate_recordset): several times faster than a multi-row
 * VALUES insert, whose thousands of parameters cost more to build than to store.
 */
export function createBatchWriter<Table extends PgTable>(
  db: DatabaseOrTransaction,
  table: Table,
  batchSize = 2000,
): BatchWriter<Table["$inferInsert"]> {
  const columns = getTableColumns(table);
  let queue: Table["$inferInsert"][] = [];
  const flush = async () => {
    if (queue.length === 0) return;
    const rows = queue;
    queue = [];
    // Only the properties the rows set, so that omitted columns get their defaults.
    const properties = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    const names = properties.map((property) => {
      const column = columns[property];
      if (!column) throw new Error(`${property} is not a column`);
      return column.name;
    });
    const records = rows.map((row) =>
      Object.fromEntries(properties.map((property, index) => [names[index], (row as Record<string, unknown>)[property] ?? null])),
    );
    const columnList = sql.join(
      names.map((name) => sql.identifier(name)),
      sql`, `,
    );
    await db.execute(
      sql`insert into ${table} (${columnList}) select ${columnList} from json_populate_recordset(null::${table}, ${JSON.stringify(records)}::json)`,
    );
  };
  return {
    async push(row) {
      queue.push(row);
      if (queue.length >= batchSize) await flush();
    },
    flush,
  };
}

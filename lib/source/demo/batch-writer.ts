import type { PgTable } from "drizzle-orm/pg-core";
import type { DatabaseOrTransaction } from "@/db/client";

export interface BatchWriter<Row> {
  /** Queues a row; writes the queue as one multi-row insert when it is full. */
  push(row: Row): Promise<void>;
  /** Writes what is queued. */
  flush(): Promise<void>;
}

/** Inserts rows in batches of `batchSize`, so a large data set never sits in memory at once. */
export function createBatchWriter<Table extends PgTable>(db: DatabaseOrTransaction, table: Table, batchSize = 1000): BatchWriter<Table["$inferInsert"]> {
  let queue: Table["$inferInsert"][] = [];
  const flush = async () => {
    if (queue.length === 0) return;
    const rows = queue;
    queue = [];
    await db.insert(table).values(rows);
  };
  return {
    async push(row) {
      queue.push(row);
      if (queue.length >= batchSize) await flush();
    },
    flush,
  };
}

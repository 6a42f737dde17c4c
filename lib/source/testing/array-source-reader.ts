import { createHash } from "node:crypto";
import type { SourceReader } from "../source-reader";
import type { SourceResource, SourceRowOf } from "../source-rows";

export type SourceRows = { [R in SourceResource]?: SourceRowOf[R][] };

/**
 * A source held in memory, for tests of what is done with source rows (the SQL
 * reader has its own tests against PostgreSQL). Windows are applied like the SQL files do.
 */
export function createArraySourceReader(rows: SourceRows): SourceReader & { rows: SourceRows } {
  const inWindow = (startsAt: string | null, start?: string | null, end?: string | null) =>
    startsAt === null || ((!start || startsAt >= start) && (!end || startsAt < end));
  return {
    rows,
    async *read(resource, params, options) {
      const all = (rows[resource] ?? []) as SourceRowOf[typeof resource][];
      const selected = all.filter((row) => !("starts_at" in row) || inWindow(row.starts_at, params.windowStart, params.windowEnd));
      const size = options?.batchSize ?? 2000;
      for (let start = 0; start < selected.length; start += size) yield selected.slice(start, start + size);
    },
    async fingerprint() {
      return createHash("sha256").update(JSON.stringify(rows)).digest("hex");
    },
    async close() {},
  };
}

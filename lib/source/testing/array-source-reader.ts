import { createHash } from "node:crypto";
import { idEndOf, withoutWhiteSpace, type SourceReadParams, type SourceReader } from "../source-reader";
import type { SourceResource, SourceRowOf } from "../source-rows";

export type SourceRows = { [R in SourceResource]?: SourceRowOf[R][] };

/**
 * A source held in memory, for tests of what is done with source rows (the SQL
 * reader has its own tests against PostgreSQL). Windows are applied like the SQL files do.
 */
export function createArraySourceReader(rows: SourceRows): SourceReader & { rows: SourceRows } {
  // A row without a start time is in no window, as in the SQL files (`starts_at >= coalesce(:window_start, '-infinity')`).
  const inWindow = (startsAt: string | null, start?: string | null, end?: string | null) =>
    startsAt !== null && (!start || startsAt >= start) && (!end || startsAt < end);
  const windowed = (resource: SourceResource, params: SourceReadParams) =>
    ((rows[resource] ?? []) as SourceRowOf[SourceResource][]).filter(
      (row) => !("starts_at" in row) || inWindow(row.starts_at, params.windowStart, params.windowEnd),
    );
  return {
    rows,
    async *read(resource, params, options) {
      const filter = options?.filter;
      const passes = (row: SourceRowOf[SourceResource]) => {
        if (!filter || (filter.changedSince === undefined && filter.ids === undefined)) return true;
        const updatedAt = "updated_at" in row ? row.updated_at : null;
        const changed = filter.changedSince !== undefined && (updatedAt === null || updatedAt > filter.changedSince);
        const id = "id" in row && row.id !== null ? String(row.id) : null;
        return changed || (filter.ids !== undefined && (filter.ids.includes(id ?? "") || filter.ids.includes((id ?? "").trim())));
      };
      const selected = windowed(resource, params).filter(passes) as SourceRowOf[typeof resource][];
      const size = options?.batchSize ?? 2000;
      for (let start = 0; start < selected.length; start += size) yield selected.slice(start, start + size);
    },
    async count(resource, params) {
      return windowed(resource, params).length;
    },
    async countByDay(resource, params) {
      const days = new Map<string, number>();
      for (const row of windowed(resource, params)) {
        const day = "starts_at" in row && row.starts_at !== null ? row.starts_at.replace(/^ +| +$/g, "").slice(0, 10) : "";
        days.set(day, (days.get(day) ?? 0) + 1);
      }
      return days;
    },
    async *readIds(resource, params, options) {
      const counts = new Map<string, number>();
      for (const row of windowed(resource, params))
        if ("id" in row && row.id !== null && (!options?.idEnds || options.idEnds.includes(idEndOf(String(row.id)))))
          counts.set(String(row.id), (counts.get(String(row.id)) ?? 0) + 1);
      const ids = [...counts].map(([id, rows]) => ({ id, rows }));
      ids.sort((first, second) => Buffer.compare(Buffer.from(first.id), Buffer.from(second.id)));
      const size = options?.batchSize ?? 2000;
      for (let start = 0; start < ids.length; start += size) yield ids.slice(start, start + size);
    },
    async countByIdEnd(resource, params) {
      const ends = new Map<string, number>();
      for (const row of windowed(resource, params)) {
        const end = idEndOf("id" in row && row.id !== null ? String(row.id) : "");
        ends.set(end, (ends.get(end) ?? 0) + 1);
      }
      return ends;
    },
    async earliestStart(resource, params) {
      const starts = windowed(resource, params)
        .map((row) => ("starts_at" in row ? row.starts_at : null))
        .filter((start): start is string => start !== null)
        .sort();
      return starts[0] ?? null;
    },
    async repeatedIds(resource, params) {
      const seen = new Set<string>();
      const repeated = new Set<string>();
      for (const row of windowed(resource, params)) {
        if (!("id" in row) || row.id === null) continue;
        const id = withoutWhiteSpace(String(row.id));
        if (seen.has(id)) repeated.add(id);
        seen.add(id);
      }
      return repeated;
    },
    async clock() {
      return new Date();
    },
    async querySignature() {
      return "array";
    },
    async fingerprint() {
      return createHash("sha256").update(JSON.stringify(rows)).digest("hex");
    },
    async close() {},
  };
}

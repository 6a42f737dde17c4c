import { stringify } from "csv-stringify/sync";
import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { cursorRows } from "@/db/raw-sql";

const header = ["record_type", "source_id", "external_id", "severity", "field", "code", "reason", "original_value_masked"];

/**
 * A cell a spreadsheet shows as text: one that would start a formula gets a leading quote. Spreadsheets skip leading
 * white space before a formula and read the full-width signs as their own, so = + - @ count after spaces too, in
 * either width, and a cell that opens with a tab or a line break is quoted whatever follows.
 */
export const spreadsheetSafe = (value: string | null | undefined) =>
  value && /^(?:[\t\r\n]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/.test(value) ? `'${value}` : (value ?? "");

/** Every issue of a location's preview as CSV, streamed from a cursor: the export of a million-row preview stays small in memory. */
export function issuesCsvStream(db: Database, locationId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: AsyncIterator<Record<string, string | null>[]> | undefined;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(stringify([header])));
      cursor = cursorRows<Record<string, string | null>>(
        db,
        sql`select i.record_type, r.source_id, r.record_key, i.severity, i.field, i.code, i.reason, i.original
            from preview_issues i
            join preview_records r on r.location_id = i.location_id and r.record_type = i.record_type and r.seq = i.seq
            where i.location_id = ${locationId}
            order by i.record_type, i.seq`,
        1000,
      )[Symbol.asyncIterator]();
    },
    async pull(controller) {
      const next = await cursor!.next();
      if (next.done) return controller.close();
      const rows = next.value.map((row) =>
        [row.record_type, row.source_id, row.record_key, row.severity, row.field, row.code, row.reason, row.original].map(spreadsheetSafe),
      );
      controller.enqueue(encoder.encode(stringify(rows)));
    },
    async cancel() {
      await cursor?.return?.();
    },
  });
}

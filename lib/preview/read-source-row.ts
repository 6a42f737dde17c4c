import { DateTime } from "luxon";
import { upstreamTypeOf } from "@/lib/mapping/map-row";
import type { SourceReader } from "@/lib/source/source-reader";
import type { SourceResource } from "@/lib/source/source-rows";
import type { PreviewRecordType } from "./preview-plan";

const resourceOf = Object.fromEntries(Object.entries(upstreamTypeOf).map(([resource, type]) => [type, resource])) as Record<
  PreviewRecordType,
  SourceResource
>;

/** At most this many rows are shown for one source id (a duplicated id has several). */
const MAX_ROWS = 5;

/**
 * The source rows a preview record was mapped from, read now (the source may have changed since the preview ran):
 * by id through the reader's `ids` filter, as an incremental run reads (lib/preview/incremental-read.ts). A slot has
 * no id: its source id is "<staff>|<service>|<start>", read as the one second its start names.
 */
export async function readSourceRows(
  reader: SourceReader,
  sourceKey: string,
  type: PreviewRecordType,
  sourceId: string,
): Promise<Record<string, unknown>[]> {
  const resource = resourceOf[type];
  const rows: Record<string, unknown>[] = [];
  if (resource === "availability") {
    const [staffId, serviceId, startsAt] = sourceId.split("|");
    const start = startsAt ? DateTime.fromSQL(startsAt) : null;
    if (!start?.isValid) return [];
    const window = { sourceKey, windowStart: startsAt!, windowEnd: start.plus({ seconds: 1 }).toFormat("yyyy-MM-dd HH:mm:ss") };
    for await (const batch of reader.read("availability", window)) {
      rows.push(...batch.filter((row) => (row.staff_id ?? "") === staffId && (row.service_id ?? "") === serviceId).map((row) => ({ ...row })));
    }
    return rows.slice(0, MAX_ROWS);
  }
  for await (const batch of reader.read(resource, { sourceKey, windowStart: null, windowEnd: null }, { filter: { ids: [sourceId] } })) {
    rows.push(...(batch as unknown as Record<string, unknown>[]));
    if (rows.length >= MAX_ROWS) break;
  }
  return rows.slice(0, MAX_ROWS);
}

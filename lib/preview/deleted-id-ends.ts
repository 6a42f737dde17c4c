import type { DatabaseTransaction } from "@/db/client";
import { differingKeys, totalOf } from "./count-maps";
import type { RunInput } from "./map-source-rows";
import type { PlannedRead } from "./preview-plan";
import type { BucketCounts } from "./record-buckets";
import { countByIdEnd } from "./preview-record-counts";

/**
 * The id ends (idEndOf: a trimmed id's last two characters) whose rows the source no longer has in the
 * same number as we do, once the changed rows are replaced: deleted customers and vehicles are looked for among the
 * ids ending so, not among every id of the location. The source counts its rows by id end in one query; ours are kept
 * per id end as they are written (lib/preview/record-buckets.ts; every spelling of an id has the same end). Null
 * (compare every id) when the counts do not add up (a reader without a snapshot, the source changed between them) or
 * the source cannot count so (a server that is not UTF-8). Counting a location's 200,000 customers by id end and listing the ids of ten ends takes the source
 * ~0.35 s, against ~0.45–0.55 s to list every id; our side then lists a tenth of its ids.
 */
export async function idEndsToCompare(
  tx: DatabaseTransaction,
  input: RunInput,
  read: PlannedRead,
  inAll: { ours: number; theirs: number; buckets: BucketCounts },
): Promise<string[] | null> {
  const window = { sourceKey: input.sourceKey, windowStart: read.windowStart, windowEnd: read.windowEnd };
  const [theirs, ours] = await Promise.all([
    input.reader.countByIdEnd(read.resource, window).catch(() => null),
    // As kept by id end (customers, vehicles), else counted (an appointment whose days cannot be matched).
    read.recordType === "appointments" ? countByIdEnd(tx, input.owner.locationId, read.recordType) : inAll.buckets,
  ]);
  if (!theirs || totalOf(theirs.values()) !== inAll.theirs || totalOf(ours.values()) !== inAll.ours) return null;
  const differing = differingKeys(theirs, ours);
  return differing.length ? differing : null;
}

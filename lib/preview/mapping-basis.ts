import { createHash } from "node:crypto";
import { MAPPING_VERSION } from "@/lib/mapping/mapping-version";
import type { SourceReader } from "@/lib/source/source-reader";
import { defaultDateTimeStyle, type DateTimeStyle } from "@/lib/upstream/formats";

/**
 * Everything a record's mapping depends on besides its source row: two runs with the same basis map an
 * unchanged row to the same record, so the later one may keep it. Anything else forces a full run. The source
 * key is part of it: rows of another source key are other rows, and an incremental run would keep the old ones.
 */
export async function mappingBasisOf(
  location: { timeZone: string; country: string; automotive: boolean; sourceKey: string | null; dateTimeStyle?: DateTimeStyle },
  reader: SourceReader,
): Promise<string> {
  const parts = [
    MAPPING_VERSION,
    location.sourceKey,
    location.timeZone,
    location.country,
    location.automotive,
    location.dateTimeStyle ?? defaultDateTimeStyle,
    await reader.querySignature(),
  ];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

import type postgres from "postgres";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";

// What a streamed session asks of synced_records (what the upstream last accepted), by key: never a scan of the location.

/** The accepted content hash of each of these keys that the upstream holds. */
export async function acceptedHashes(
  sql: postgres.Sql,
  locationId: string,
  type: PreviewRecordType,
  keys: readonly string[],
): Promise<Map<string, string>> {
  if (!keys.length) return new Map();
  const rows = await sql<{ key: string; hash: string }[]>`
    select record_key as key, content_hash as hash from synced_records
    where location_id = ${locationId} and record_type = ${type} and record_key = any(${keys as string[]}::text[])`;
  return new Map(rows.map((row) => [row.key, row.hash]));
}

/** The services the upstream holds: an openings request for any other would be refused. */
export async function heldServices(sql: postgres.Sql, locationId: string): Promise<Set<string>> {
  const rows = await sql<
    { key: string }[]
  >`select record_key as key from synced_records where location_id = ${locationId} and record_type = 'services'`;
  return new Set(rows.map((row) => row.key));
}

/** Services with openings the upstream accepted before: an import without any makes them disappear. */
export async function servicesWithSyncedOpenings(sql: postgres.Sql, locationId: string): Promise<string[]> {
  const rows = await sql<{ service: string }[]>`
    select distinct split_part(record_key, '|', 1) as service from synced_records where location_id = ${locationId} and record_type = 'openings'`;
  return rows.map((row) => row.service);
}

import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import { UNSUBSCRIBED_HASH } from "@/lib/preview/live-diff";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { serviceOfOpeningKey, type OpeningSummary } from "../plan/openings-to-send";

// What a streamed session asks of synced_records (what the upstream last accepted), by key: never a scan of the location.

/** The accepted content hash of each of these keys that the upstream holds. */
export async function acceptedHashes(
  db: DatabaseOrTransaction,
  locationId: string,
  type: PreviewRecordType,
  keys: readonly string[],
): Promise<Map<string, string>> {
  if (!keys.length) return new Map();
  const rows = await queryRows<{ key: string; hash: string }>(
    db,
    sql`
    select record_key as key, content_hash as hash from synced_records
    where location_id = ${locationId} and record_type = ${type} and record_key = any(${sql.param(keys)}::text[])`,
  );
  return new Map(rows.map((row) => [row.key, row.hash]));
}

/** The services the upstream holds: an openings request for any other would be refused. */
export async function heldServices(db: DatabaseOrTransaction, locationId: string): Promise<Set<string>> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`select record_key as key from synced_records where location_id = ${locationId} and record_type = 'services'`,
  );
  return new Set(rows.map((row) => row.key));
}

/** The openings the upstream accepted, each with its service (a few thousand: the next 72 hours). */
export async function acceptedOpenings(db: DatabaseOrTransaction, locationId: string): Promise<OpeningSummary[]> {
  const rows = await queryRows<{ key: string; hash: string }>(
    db,
    sql`
    select record_key as key, content_hash as hash from synced_records where location_id = ${locationId} and record_type = 'openings'`,
  );
  return rows.map((row) => ({ service: serviceOfOpeningKey(row.key), key: row.key, hash: row.hash }));
}

/**
 * Whether the upstream holds anything of the location (as last accepted), or of one type of it. Ordered by the key so
 * that PostgreSQL walks the key index: with a bare `limit 1` it expects a match in the first pages and reads the table
 * from its start (800,000 appointments before the first contact: 130 ms).
 */
export async function anythingAccepted(db: DatabaseOrTransaction, locationId: string, type?: PreviewRecordType): Promise<boolean> {
  const ofType = type ? sql`and record_type = ${type}` : sql``;
  const rows = await queryRows(
    db,
    sql`select 1 from synced_records where location_id = ${locationId} ${ofType} order by location_id, record_type, record_key limit 1`,
  );
  return rows.length > 0;
}

/** The contacts the upstream holds that records may name (not unsubscribed). */
export async function heldContactKeys(db: DatabaseOrTransaction, locationId: string): Promise<Set<string>> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`select record_key as key from synced_records
        where location_id = ${locationId} and record_type = 'contact_details' and content_hash <> ${UNSUBSCRIBED_HASH}`,
  );
  return new Set(rows.map((row) => row.key));
}

/** The local date of the earliest appointment the upstream holds (as last accepted), or null. */
export async function earliestHeldAppointment(db: DatabaseOrTransaction, locationId: string): Promise<string | null> {
  const [row] = await queryRows<{ earliest: string | null }>(
    db,
    sql`select min(appointment_date)::text as earliest from synced_records where location_id = ${locationId} and record_type = 'appointments'`,
  );
  return row?.earliest ?? null;
}

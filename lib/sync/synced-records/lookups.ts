import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import { UNSUBSCRIBED_HASH } from "./compare";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { serviceOfOpeningKey, type OpeningSummary } from "@/lib/sync/plan/openings-to-send";
import type { DateRange } from "@/lib/sync/plan/date-ranges";

// What sessions, plans and pages ask of synced_records (what the upstream last accepted): by key, by date range, or counts.

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

/** The keys of a type the upstream holds, which records may name (contacts: not unsubscribed). */
export async function heldKeys(db: DatabaseOrTransaction, locationId: string, type: PreviewRecordType): Promise<Set<string>> {
  const subscribed = type === "contact_details" ? sql`and content_hash <> ${UNSUBSCRIBED_HASH}` : sql``;
  const rows = await queryRows<{ key: string }>(
    db,
    sql`select record_key as key from synced_records where location_id = ${locationId} and record_type = ${type} ${subscribed}`,
  );
  return new Set(rows.map((row) => row.key));
}

/** The services the upstream holds: an openings request for any other would be refused. */
export const heldServices = (db: DatabaseOrTransaction, locationId: string) => heldKeys(db, locationId, "services");

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

/** Whether the upstream holds an appointment dated in the range (an index look-up on synced_records_date_idx). */
export async function anyAppointmentAcceptedIn(db: DatabaseOrTransaction, locationId: string, range: DateRange): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from synced_records where location_id = ${locationId} and record_type = 'appointments'
        and appointment_date between ${range.startDate} and ${range.endDate} limit 1`,
  );
  return rows.length > 0;
}

/** The contacts the upstream holds that records may name (not unsubscribed). */
export const heldContactKeys = (db: DatabaseOrTransaction, locationId: string) => heldKeys(db, locationId, "contact_details");

/** The local date of the earliest appointment the upstream holds (as last accepted), or null. */
export async function earliestHeldAppointment(db: DatabaseOrTransaction, locationId: string): Promise<string | null> {
  const [row] = await queryRows<{ earliest: string | null }>(
    db,
    sql`select min(appointment_date)::text as earliest from synced_records where location_id = ${locationId} and record_type = 'appointments'`,
  );
  return row?.earliest ?? null;
}

/**
 * How many records the upstream holds of the location, or of one type of it (contacts: not counting unsubscribed ones);
 * counted no further than `atMost` when given.
 */
export async function countAccepted(db: DatabaseOrTransaction, locationId: string, type?: PreviewRecordType, atMost?: number): Promise<number> {
  const ofType = type ? sql`and record_type = ${type}` : sql``;
  const subscribed = type === "contact_details" ? sql`and content_hash <> ${UNSUBSCRIBED_HASH}` : sql``;
  const limit = atMost === undefined ? sql`` : sql`limit ${atMost}`;
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from (select 1 from synced_records where location_id = ${locationId} ${ofType} ${subscribed} ${limit}) held`,
  );
  return row!.count;
}

/**
 * The accepted records of a type (appointments: dated in `window`) whose keys are not among `keys`: how many, and the
 * first `limit` of them. What a replay that sends exactly `keys` removes.
 */
export async function acceptedNotAmong(
  db: DatabaseOrTransaction,
  locationId: string,
  input: { type: PreviewRecordType; keys: readonly string[]; window?: DateRange; limit: number },
): Promise<{ count: number; examples: string[] }> {
  const dated = input.window ? sql`and appointment_date between ${input.window.startDate} and ${input.window.endDate}` : sql``;
  const subscribed = input.type === "contact_details" ? sql`and content_hash <> ${UNSUBSCRIBED_HASH}` : sql``;
  // NOT IN over a subquery: a hashed anti-join, where "<> all(array)" compares every pair.
  const [row] = await queryRows<{ count: number; examples: string[] | null }>(
    db,
    sql`select count(*)::int as count, (array_agg(record_key order by record_key))[1:${input.limit}] as examples
        from synced_records where location_id = ${locationId} and record_type = ${input.type} ${dated} ${subscribed}
          and record_key not in (select unnest(${sql.param([...input.keys])}::text[]))`,
  );
  return { count: row?.count ?? 0, examples: row?.examples ?? [] };
}

/**
 * The accepted appointments' dates, as a plan needs them: the earliest, whether any was accepted at all, and whether
 * one was accepted without a date (an import range then reaches back from today).
 */
export async function acceptedAppointmentDates(
  db: DatabaseOrTransaction,
  locationId: string,
): Promise<{ anyAccepted: boolean; anyWithoutDate: boolean; earliest: string | null }> {
  // Existence and the earliest date are index look-ups (synced_records_date_idx), not counts; a date missing is the
  // index's last entry (nulls sort last): "appointment_date is null" read the whole table, the planner counting the
  // contacts' null dates as the appointments'. That last entry also says whether any appointment was accepted: a bare
  // exists() read the table from its start, the 200,000 contacts a first sync recorded first.
  const [row] = await queryRows<{ last_date_missing: boolean | null; earliest: string | null }>(
    db,
    sql`
    select (select appointment_date is null from synced_records where location_id = ${locationId} and record_type = 'appointments'
            order by appointment_date desc nulls first limit 1) as last_date_missing,
           (select min(appointment_date)::text from synced_records where location_id = ${locationId} and record_type = 'appointments') as earliest`,
  );
  return { anyAccepted: row?.last_date_missing != null, anyWithoutDate: row?.last_date_missing ?? false, earliest: row?.earliest ?? null };
}

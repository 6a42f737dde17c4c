import type postgres from "postgres";
import type { PreviewRecordType } from "./preview-plan";

// Set-based checks over a location's stored records: memory stays flat however many rows there are.
// Scope "all" checks every record; "marked" only those listed in the transaction's preview_recheck table
// (an incremental run: the changed rows and what depends on them, lib/preview/recheck-preview.ts).

type Sql = postgres.Sql | postgres.TransactionSql;
export type CheckScope = "all" | "marked";

const usable = "('valid', 'warning')";

const inScope = (sql: Sql, scope: CheckScope, alias: string) =>
  scope === "all" ? sql`` : sql`and exists (select 1 from preview_recheck k where k.record_type = ${sql(alias)}.record_type and k.seq = ${sql(alias)}.seq)`;

/**
 * A second record with the same key in one type becomes an error naming the first (spec 2.1.2).
 * With scope "marked", every record sharing a key with a marked one must be marked too.
 */
export async function markDuplicates(sql: Sql, locationId: string, scope: CheckScope = "all"): Promise<void> {
  await sql`
    with ranked as (
      select d.record_type, d.seq, d.record_key,
             first_value(d.source_id) over (partition by d.record_type, d.record_key order by d.seq) as first_source,
             row_number() over (partition by d.record_type, d.record_key order by d.seq) as position
      from preview_records d
      where d.location_id = ${locationId} and d.record_key is not null and d.status in ${sql.unsafe(usable)} ${inScope(sql, scope, "d")}
    ), duplicates as (
      update preview_records r set status = 'error', issue_count = r.issue_count + 1
      from ranked d
      where r.location_id = ${locationId} and r.record_type = d.record_type and r.seq = d.seq and d.position > 1
      returning r.record_type, r.seq, r.record_key, d.first_source
    )
    insert into preview_issues (location_id, record_type, seq, severity, field, code, reason, original, cross_check)
    select ${locationId}, record_type, seq, 'error',
           case when record_type = 'openings' then 'start_at' else 'external_id' end,
           'duplicate_external_id',
           case when record_type = 'openings' then 'repeats the opening of source row ' || first_source
                else 'repeats the external_id of source row ' || first_source end,
           record_key, true
    from duplicates`;
}

interface Reference {
  type: PreviewRecordType;
  column: "ref_contact" | "ref_service" | "ref_calendar" | "ref_category";
  field: string;
  target: PreviewRecordType;
  targetLabel: string;
}

/**
 * Checked in dependency order, so that a service excluded for a missing category
 * also fails the appointments and openings that name it.
 */
export const references: Reference[] = [
  { type: "services", column: "ref_category", field: "service_category_external_id", target: "service_categories", targetLabel: "service category" },
  { type: "appointments", column: "ref_contact", field: "contact_detail_external_id", target: "contact_details", targetLabel: "contact" },
  { type: "appointments", column: "ref_service", field: "service_external_id", target: "services", targetLabel: "service" },
  { type: "appointments", column: "ref_calendar", field: "calendar_external_id", target: "calendars", targetLabel: "calendar" },
  { type: "openings", column: "ref_service", field: "service_external_id", target: "services", targetLabel: "service" },
  { type: "openings", column: "ref_calendar", field: "calendar_external_id", target: "calendars", targetLabel: "calendar" },
  { type: "vehicles", column: "ref_contact", field: "contact_detail_external_id", target: "contact_details", targetLabel: "contact" },
];

async function markMissingReference(sql: Sql, locationId: string, reference: Reference, scope: CheckScope): Promise<void> {
  const column = sql(reference.column);
  await sql`
    with missing as (
      update preview_records r set status = 'error', issue_count = r.issue_count + 1
      where r.location_id = ${locationId} and r.record_type = ${reference.type} and r.status in ${sql.unsafe(usable)} and r.${column} is not null
        ${inScope(sql, scope, "r")}
        and not exists (
          select 1 from preview_records t
          where t.location_id = r.location_id and t.record_type = ${reference.target} and t.record_key = r.${column} and t.status in ${sql.unsafe(usable)})
      returning r.seq, r.${column} as target_key
    )
    insert into preview_issues (location_id, record_type, seq, severity, field, code, reason, original, cross_check)
    select ${locationId}, ${reference.type}, seq, 'error', ${reference.field}, 'missing_reference',
           'names ' || ${reference.targetLabel}::text || ' ' || target_key || ', which is missing or excluded', target_key, true
    from missing`;
}

/** A service names its calendars in an array: the first calendar that is missing or excluded is named. */
async function markMissingCalendarsOfServices(sql: Sql, locationId: string, scope: CheckScope): Promise<void> {
  await sql`
    with missing as (
      select r.seq, m.id as target_key
      from preview_records r
      cross join lateral (
        select c.id from unnest(r.ref_calendars) as c(id)
        where not exists (
          select 1 from preview_records t
          where t.location_id = r.location_id and t.record_type = 'calendars' and t.record_key = c.id and t.status in ${sql.unsafe(usable)})
        limit 1) m
      where r.location_id = ${locationId} and r.record_type = 'services' and r.status in ${sql.unsafe(usable)} ${inScope(sql, scope, "r")}
    ), marked as (
      update preview_records r set status = 'error', issue_count = r.issue_count + 1
      from missing where r.location_id = ${locationId} and r.record_type = 'services' and r.seq = missing.seq
      returning r.seq, missing.target_key
    )
    insert into preview_issues (location_id, record_type, seq, severity, field, code, reason, original, cross_check)
    select ${locationId}, 'services', seq, 'error', 'calendar_external_ids', 'missing_reference',
           'names calendar ' || target_key || ', which is missing or excluded', target_key, true
    from marked`;
}

/** Duplicates, then references in dependency order, for the record types given (default: all). */
export async function runChecks(sql: Sql, locationId: string, scope: CheckScope, types?: readonly PreviewRecordType[]): Promise<void> {
  const wanted = (type: PreviewRecordType) => !types || types.includes(type);
  await markDuplicates(sql, locationId, scope);
  const [categoryCheck, ...rest] = references;
  if (wanted("services")) {
    await markMissingReference(sql, locationId, categoryCheck!, scope);
    await markMissingCalendarsOfServices(sql, locationId, scope);
  }
  for (const reference of rest) if (wanted(reference.type)) await markMissingReference(sql, locationId, reference, scope);
}

/** Every record of the location checked: a full run. */
export async function crossCheckPreview(sql: Sql, locationId: string): Promise<void> {
  // Fresh statistics: the rows were just written, and without them the planner picks nested scans (seconds → minutes).
  await sql`analyze preview_records`;
  await runChecks(sql, locationId, "all");
}

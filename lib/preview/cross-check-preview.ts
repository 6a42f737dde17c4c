import type postgres from "postgres";
import type { PreviewRecordType } from "./preview-plan";

// Set-based checks over the stored records of a run: memory stays flat however many rows there are.

const usable = "('valid', 'warning')";

/** A second record with the same key in one type becomes an error naming the first (spec 2.1.2). */
export async function markDuplicates(sql: postgres.Sql, runId: string): Promise<void> {
  await sql`
    with ranked as (
      select record_type, seq, record_key,
             first_value(source_id) over (partition by record_type, record_key order by seq) as first_source,
             row_number() over (partition by record_type, record_key order by seq) as position
      from preview_records
      where run_id = ${runId} and record_key is not null and status in ${sql.unsafe(usable)}
    ), duplicates as (
      update preview_records r set status = 'error', issue_count = r.issue_count + 1
      from ranked d
      where r.run_id = ${runId} and r.record_type = d.record_type and r.seq = d.seq and d.position > 1
      returning r.record_type, r.seq, r.record_key, d.first_source
    )
    insert into preview_issues (run_id, record_type, seq, severity, field, code, reason, original)
    select ${runId}, record_type, seq, 'error',
           case when record_type = 'openings' then 'start_at' else 'external_id' end,
           'duplicate_external_id',
           case when record_type = 'openings' then 'repeats the opening of source row ' || first_source
                else 'repeats the external_id of source row ' || first_source end,
           record_key
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
const references: Reference[] = [
  { type: "services", column: "ref_category", field: "service_category_external_id", target: "service_categories", targetLabel: "service category" },
  { type: "appointments", column: "ref_contact", field: "contact_detail_external_id", target: "contact_details", targetLabel: "contact" },
  { type: "appointments", column: "ref_service", field: "service_external_id", target: "services", targetLabel: "service" },
  { type: "appointments", column: "ref_calendar", field: "calendar_external_id", target: "calendars", targetLabel: "calendar" },
  { type: "openings", column: "ref_service", field: "service_external_id", target: "services", targetLabel: "service" },
  { type: "openings", column: "ref_calendar", field: "calendar_external_id", target: "calendars", targetLabel: "calendar" },
  { type: "vehicles", column: "ref_contact", field: "contact_detail_external_id", target: "contact_details", targetLabel: "contact" },
];

async function markMissingReference(sql: postgres.Sql, runId: string, reference: Reference): Promise<void> {
  const column = sql(reference.column);
  await sql`
    with missing as (
      update preview_records r set status = 'error', issue_count = r.issue_count + 1
      where r.run_id = ${runId} and r.record_type = ${reference.type} and r.status in ${sql.unsafe(usable)} and r.${column} is not null
        and not exists (
          select 1 from preview_records t
          where t.run_id = r.run_id and t.record_type = ${reference.target} and t.record_key = r.${column} and t.status in ${sql.unsafe(usable)})
      returning r.seq, r.${column} as target_key
    )
    insert into preview_issues (run_id, record_type, seq, severity, field, code, reason, original)
    select ${runId}, ${reference.type}, seq, 'error', ${reference.field}, 'missing_reference',
           'names ' || ${reference.targetLabel}::text || ' ' || target_key || ', which is missing or excluded', target_key
    from missing`;
}

/** A service names its calendars in an array: the first calendar that is missing or excluded is named. */
async function markMissingCalendarsOfServices(sql: postgres.Sql, runId: string): Promise<void> {
  await sql`
    with missing as (
      select r.seq, m.id as target_key
      from preview_records r
      cross join lateral (
        select c.id from unnest(r.ref_calendars) as c(id)
        where not exists (
          select 1 from preview_records t
          where t.run_id = r.run_id and t.record_type = 'calendars' and t.record_key = c.id and t.status in ${sql.unsafe(usable)})
        limit 1) m
      where r.run_id = ${runId} and r.record_type = 'services' and r.status in ${sql.unsafe(usable)}
    ), marked as (
      update preview_records r set status = 'error', issue_count = r.issue_count + 1
      from missing where r.run_id = ${runId} and r.record_type = 'services' and r.seq = missing.seq
      returning r.seq, missing.target_key
    )
    insert into preview_issues (run_id, record_type, seq, severity, field, code, reason, original)
    select ${runId}, 'services', seq, 'error', 'calendar_external_ids', 'missing_reference',
           'names calendar ' || target_key || ', which is missing or excluded', target_key
    from marked`;
}

export async function crossCheckPreview(sql: postgres.Sql, runId: string): Promise<void> {
  // Fresh statistics: the rows were just written, and without them the planner picks nested scans (seconds → minutes).
  await sql`analyze preview_records`;
  await markDuplicates(sql, runId);
  const [categoryCheck, ...rest] = references;
  await markMissingReference(sql, runId, categoryCheck!);
  await markMissingCalendarsOfServices(sql, runId);
  for (const reference of rest) await markMissingReference(sql, runId, reference);
}

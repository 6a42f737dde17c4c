import { sql, type SQL } from "drizzle-orm";
import { sendableStatusList } from "@/lib/pipeline/record-status-sql";
import type { DatabaseOrTransaction } from "@/db/client";
import { referenceRules, type ReferenceRule } from "@/lib/pipeline/reference-rules";
import type { PreviewRecordType } from "./preview-plan";

// The checks of an incremental run, set-based over a location's stored records (a run that maps every row checks each
// as it is mapped: lib/pipeline/cross-checks.ts, held to decide the same by cross-checks.property.test.ts).
// Scope "all" checks every record; "marked" only those listed in the transaction's preview_recheck table
// (the changed rows and what depends on them, lib/preview/recheck-preview.ts).

export type CheckScope = "all" | "marked";

const inScope = (scope: CheckScope, alias: string) =>
  scope === "all"
    ? sql``
    : sql`and exists (select 1 from preview_recheck k where k.record_type = ${sql.identifier(alias)}.record_type and k.seq = ${sql.identifier(alias)}.seq)`;

/**
 * A second record with the same key in one type becomes an error naming the first (spec 2.1.2).
 * With scope "marked", every record sharing a key with a marked one must be marked too.
 */
export async function markDuplicates(db: DatabaseOrTransaction, locationId: string, scope: CheckScope = "all"): Promise<void> {
  await db.execute(sql`
    with ranked as (
      select d.record_type, d.seq, d.record_key,
             first_value(d.source_id) over (partition by d.record_type, d.record_key order by d.seq) as first_source,
             row_number() over (partition by d.record_type, d.record_key order by d.seq) as position
      from preview_records d
      where d.location_id = ${locationId} and d.record_key is not null and d.status in ${sendableStatusList} ${inScope(scope, "d")}
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
    from duplicates`);
}

const targetMissing = (reference: ReferenceRule, key: SQL) => sql`not exists (
  select 1 from preview_records t
  where t.location_id = r.location_id and t.record_type = ${reference.target} and t.record_key = ${key} and t.status in ${sendableStatusList})`;

// Taking a reference out of a payload keeps what it held (and the mapped hash) in dropped_references, so that a
// re-check can put it back; the hash of what is sent is derived from both, the same in a full and an incremental run.
const mappedHash = "coalesce(r.dropped_references->>'hash', r.content_hash)";
type DroppableField = "service_category_external_id" | "calendar_external_ids" | "service_external_id" | "calendar_external_id";

/** SET clauses of a drop; `sentValue` is the payload as sent (SQL over `r`). Field names are constants, never input. */
function dropAssignments(field: DroppableField, sentValue: string) {
  const fields = `coalesce(r.dropped_references->'fields', '{}'::jsonb) || jsonb_build_object('${field}', r.payload->'${field}')`;
  return sql.raw(`status = 'warning',
      payload = ${sentValue},
      dropped_references = jsonb_build_object('fields', ${fields}, 'hash', ${mappedHash}),
      content_hash = md5(${mappedHash} || (${fields})::text)`);
}

/**
 * A usable record naming a target that is missing or excluded: an error (`onMissing: "error"`), or it loses that
 * reference with a warning naming it and is still sent (`"drop"`).
 */
async function checkReference(db: DatabaseOrTransaction, locationId: string, reference: ReferenceRule, scope: CheckScope): Promise<void> {
  const column = sql.identifier(reference.column);
  const field = reference.field as DroppableField;
  const drop = reference.onMissing === "drop";
  const outcome = drop
    ? {
        set: dropAssignments(field, `r.payload - '${field}'`),
        severity: "warning",
        code: "dropped_reference",
        tail: ", which is no longer sent: sent without it",
      }
    : { set: sql`status = 'error'`, severity: "error", code: "missing_reference", tail: ", which is missing or excluded" };
  await db.execute(sql`
    with affected as (
      update preview_records r set ${outcome.set}, issue_count = r.issue_count + 1
      where r.location_id = ${locationId} and r.record_type = ${reference.type} and r.status in ${sendableStatusList} and r.${column} is not null
        ${drop ? sql`and r.payload ? ${field}` : sql``}
        ${inScope(scope, "r")}
        and ${targetMissing(reference, sql`r.${column}`)}
      returning r.seq, r.${column} as target_key
    )
    insert into preview_issues (location_id, record_type, seq, severity, field, code, reason, original, cross_check)
    select ${locationId}, ${reference.type}, seq, ${outcome.severity}, ${reference.field}, ${outcome.code},
           'names ' || ${reference.targetLabel}::text || ' ' || target_key || ${outcome.tail}::text, target_key, true
    from affected`);
}

/** A service names its calendars in an array: the ones no longer sent are taken out of it, each with a warning. */
async function dropMissingCalendarsOfServices(db: DatabaseOrTransaction, locationId: string, scope: CheckScope): Promise<void> {
  const calendars = referenceRules.find((reference) => reference.type === "appointments" && reference.column === "ref_calendar")!;
  const kept = `(select coalesce(jsonb_agg(c.id order by c.position), '[]'::jsonb)
      from jsonb_array_elements(r.payload->'calendar_external_ids') with ordinality as c(id, position)
      where not (c.id #>> '{}' = any(m.missing_ids)))`;
  await db.execute(sql`
    with missing as (
      select r.seq, array_agg(c.id order by c.position) as missing_ids
      from preview_records r
      cross join lateral unnest(r.ref_calendars) with ordinality as c(id, position)
      where r.location_id = ${locationId} and r.record_type = 'services' and r.status in ${sendableStatusList} ${inScope(scope, "r")}
        and jsonb_typeof(r.payload->'calendar_external_ids') = 'array'
        and ${targetMissing(calendars, sql`c.id`)}
      group by r.seq
    ), dropped as (
      update preview_records r set ${dropAssignments("calendar_external_ids", `jsonb_set(r.payload, '{calendar_external_ids}', ${kept})`)},
        issue_count = r.issue_count + cardinality(m.missing_ids)
      from missing m where r.location_id = ${locationId} and r.record_type = 'services' and r.seq = m.seq
      returning r.seq, m.missing_ids
    )
    insert into preview_issues (location_id, record_type, seq, severity, field, code, reason, original, cross_check)
    select ${locationId}, 'services', seq, 'warning', 'calendar_external_ids', 'dropped_reference',
           'names calendar ' || target_key || ', which is no longer sent: sent without it', target_key, true
    from dropped cross join lateral unnest(dropped.missing_ids) as target_key`);
}

/** Duplicates, then references in dependency order, for the record types given (default: all). */
export async function runChecks(
  db: DatabaseOrTransaction,
  locationId: string,
  scope: CheckScope,
  types?: readonly PreviewRecordType[],
): Promise<void> {
  const wanted = (type: PreviewRecordType) => !types || types.includes(type);
  await markDuplicates(db, locationId, scope);
  for (const reference of referenceRules) {
    if (!wanted(reference.type)) continue;
    await checkReference(db, locationId, reference, scope);
    if (reference.column === "ref_category") await dropMissingCalendarsOfServices(db, locationId, scope);
  }
}

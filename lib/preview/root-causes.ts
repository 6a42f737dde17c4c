import { sql, type SQL } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { referenceRules, serviceCalendarsField } from "@/lib/pipeline/reference-rules";
import { skippedStatusList } from "@/lib/pipeline/record-status-sql";
import type { PreviewRecordType } from "./preview-plan";
import { rootCauseIdOf, type RootCauseOrigin } from "./root-cause-id";

// A record that cannot be sent is the root of the issues of every record naming it: a missing or dropped reference
// (lib/pipeline/reference-rules.ts) names its target's key in `original`. Only appointments, openings and vehicles
// become errors through a reference, and no record names one of those (reference-rules: a rule's type is never another
// rule's target), so every chain is one step long: the root is the target itself (missing, excluded, or an error of its own).

/** The codes of the issues a reference check writes (lib/pipeline/cross-checks.ts, lib/preview/cross-check-preview.ts). */
export const referenceCodes = ["missing_reference", "dropped_reference"] as const;

/** Which record type the field of a record of `type` names. */
export const referenceTargets: readonly { type: PreviewRecordType; field: string; target: PreviewRecordType }[] = [
  ...referenceRules.map(({ type, field, target }) => ({ type, field, target })),
  { type: "services", field: serviceCalendarsField, target: "calendars" },
];

/** What one cause holds back, per record type: records not sent, and records sent with a warning (without the reference). */
export interface RootCauseEffect {
  type: PreviewRecordType;
  notSent: number;
  sentWithWarning: number;
}

export interface RootCause {
  /** The `cause=` URL value that filters the records to those this cause affects. */
  id: string;
  origin: RootCauseOrigin;
  severity: "error" | "warning";
  /** The most common reason of the records the cause has (issue), or the rule (excluded); null for a missing record. */
  reason: string | null;
  /** Every record type it reaches, the root's own type first, then in protocol order. */
  effects: RootCauseEffect[];
  /** All records it affects, of every type (a record naming two bad targets counts in both causes). */
  total: number;
}

const referenceTargetsValues = sql.join(
  referenceTargets.map((entry) => sql`(${entry.type}, ${entry.field}, ${entry.target})`),
  sql`, `,
);
const referenceCodeList = sql.join(
  referenceCodes.map((code) => sql`${code}`),
  sql`, `,
);
/** Issue `i` is a reference check's (the mapping also reports a reference the row lacks as missing_reference, without a key). */
const isReferenceIssue = sql`(i.cross_check and i.code in (${referenceCodeList}))`;

/**
 * The issues of a location's preview grouped by root cause, each with the records it holds back of every type:
 * "service category c-9 is missing → 1 service sent without it", "service sv-2: price_cents is negative → 1 service,
 * 24 openings not sent, 281 appointments sent without it". Errors first, then by the records affected. Read-only.
 */
export async function listRootCauses(db: DatabaseOrTransaction, locationId: string): Promise<RootCause[]> {
  const [ownIssues, edges] = await Promise.all([
    queryRows<{ record_type: PreviewRecordType; severity: string; field: string; code: string; records: number; reason: string }>(
      db,
      sql`select i.record_type, i.severity, i.field, i.code, count(distinct i.seq)::int as records,
                 mode() within group (order by i.reason) as reason
          from preview_issues i
          where i.location_id = ${locationId} and not ${isReferenceIssue}
          group by 1, 2, 3, 4`,
    ),
    // Per target key: the records naming it, then the first record with that key (none: the source does not have it).
    queryRows<{
      record_type: PreviewRecordType;
      target_type: PreviewRecordType;
      target_key: string;
      severity: string;
      records: number;
      target_seq: number | null;
      target_status: string | null;
      excluded_reason: string | null;
    }>(
      db,
      sql`with targets(record_type, field, target_type) as (values ${referenceTargetsValues}),
          edges as (
            select i.record_type, x.target_type, i.original as target_key, i.severity, count(*)::int as records
            from preview_issues i join targets x on x.record_type = i.record_type and x.field = i.field
            where i.location_id = ${locationId} and ${isReferenceIssue} and i.original is not null
            group by 1, 2, 3, 4)
          select e.*, t.seq as target_seq, t.status as target_status, t.excluded_reason
          from edges e
          left join lateral (
            select seq, status, excluded_reason from preview_records t
            where t.location_id = ${locationId} and t.record_type = e.target_type and t.record_key = e.target_key
            order by seq limit 1) t on true`,
    ),
  ]);

  // The own issues of the targets that exist but are not sent: what their dependants are attributed to.
  const erroneousTargets = [
    ...new Map(
      edges
        .filter((edge) => edge.target_status === "error" && edge.target_seq !== null)
        .map((edge) => [`${edge.target_type}|${edge.target_seq}`, { target_type: edge.target_type, target_seq: edge.target_seq }]),
    ).values(),
  ];
  const targetIssues = erroneousTargets.length
    ? await queryRows<{ record_type: PreviewRecordType; seq: number; severity: string; field: string; code: string }>(
        db,
        sql`select i.record_type, i.seq, i.severity, i.field, i.code from preview_issues i
            join unnest(${sql.param(erroneousTargets.map((edge) => edge.target_type))}::text[],
                        ${sql.param(erroneousTargets.map((edge) => edge.target_seq))}::int[]) as t(record_type, seq)
              on t.record_type = i.record_type and t.seq = i.seq
            where i.location_id = ${locationId} and i.severity = 'error' and not ${isReferenceIssue}`,
      )
    : [];

  const causes = new Map<string, RootCause>();
  const causeOf = (origin: RootCauseOrigin, severity: "error" | "warning", reason: string | null): RootCause => {
    const id = rootCauseIdOf(origin);
    let cause = causes.get(id);
    if (!cause) causes.set(id, (cause = { id, origin, severity, reason, effects: [], total: 0 }));
    return cause;
  };
  const add = (cause: RootCause, type: PreviewRecordType, notSent: number, sentWithWarning: number) => {
    let effect = cause.effects.find((candidate) => candidate.type === type);
    if (!effect) cause.effects.push((effect = { type, notSent: 0, sentWithWarning: 0 }));
    effect.notSent += notSent;
    effect.sentWithWarning += sentWithWarning;
    cause.total += notSent + sentWithWarning;
  };

  for (const issue of ownIssues) {
    const severity = issue.severity === "error" ? "error" : "warning";
    const cause = causeOf({ kind: "issue", type: issue.record_type, severity, field: issue.field, code: issue.code }, severity, issue.reason);
    add(cause, issue.record_type, severity === "error" ? issue.records : 0, severity === "error" ? 0 : issue.records);
  }
  for (const edge of edges) {
    const notSent = edge.severity === "error" ? edge.records : 0;
    const sentWithWarning = edge.severity === "error" ? 0 : edge.records;
    const origins: RootCauseOrigin[] =
      edge.target_seq === null
        ? [{ kind: "missing", type: edge.target_type, key: edge.target_key }]
        : edge.target_status === "excluded"
          ? [{ kind: "excluded", type: edge.target_type, reason: edge.excluded_reason ?? "" }]
          : targetIssues
              .filter((issue) => issue.record_type === edge.target_type && issue.seq === edge.target_seq)
              .map((issue) => ({ kind: "issue", type: issue.record_type, severity: "error", field: issue.field, code: issue.code }) as const);
    // A record with the same issue twice is one cause.
    for (const origin of new Map(origins.map((candidate) => [rootCauseIdOf(candidate), candidate])).values()) {
      const isNew = !causes.has(rootCauseIdOf(origin));
      const cause = causeOf(origin, notSent ? "error" : "warning", origin.kind === "excluded" ? origin.reason : null);
      if (notSent) cause.severity = "error";
      // An excluded target counts itself once: the records the rule keeps back are not issues of their own.
      if (isNew && origin.kind === "excluded") add(cause, origin.type, 0, 0);
      add(cause, edge.record_type, notSent, sentWithWarning);
    }
  }
  if (causes.size && [...causes.values()].some((cause) => cause.origin.kind === "excluded")) await countExcluded(db, locationId, causes);
  return [...causes.values()]
    .map((cause) => ({ ...cause, effects: orderEffects(cause) }))
    .sort((first, second) => (first.severity === second.severity ? second.total - first.total : first.severity === "error" ? -1 : 1));
}

/** The excluded records a rule keeps back, counted as not sent in the causes that name them. */
async function countExcluded(db: DatabaseOrTransaction, locationId: string, causes: Map<string, RootCause>): Promise<void> {
  const rows = await queryRows<{ record_type: PreviewRecordType; excluded_reason: string | null; records: number }>(
    db,
    sql`select record_type, excluded_reason, count(*)::int as records from preview_records
        where location_id = ${locationId} and status = 'excluded' group by 1, 2`,
  );
  for (const row of rows) {
    const cause = causes.get(rootCauseIdOf({ kind: "excluded", type: row.record_type, reason: row.excluded_reason ?? "" }));
    const effect = cause?.effects.find((candidate) => candidate.type === row.record_type);
    if (!cause || !effect) continue;
    effect.notSent += row.records;
    cause.total += row.records;
  }
}

const protocolOrder: readonly PreviewRecordType[] = [
  "calendars",
  "service_categories",
  "services",
  "contact_details",
  "vehicles",
  "appointments",
  "openings",
];

function orderEffects(cause: RootCause): RootCauseEffect[] {
  const rank = (type: PreviewRecordType) => (type === cause.origin.type ? -1 : protocolOrder.indexOf(type));
  return [...cause.effects].sort((first, second) => rank(first.type) - rank(second.type));
}

/**
 * The condition on preview_records (as `records`, of `type`) that keeps the records a cause affects: the root's own
 * records, and the records naming one of them (or naming the missing key).
 */
export function rootCauseFilter(origin: RootCauseOrigin, type: PreviewRecordType, records = "r"): SQL {
  const r = sql.identifier(records);
  const fields = referenceTargets.filter((entry) => entry.type === type && entry.target === origin.type).map((entry) => entry.field);
  const targetIs =
    origin.kind === "missing"
      ? sql`i.original = ${origin.key}`
      : sql`exists (select 1 from preview_records t where t.location_id = ${r}.location_id and t.record_type = ${origin.type}
                      and t.record_key = i.original and t.status in ${skippedStatusList} and ${rootCondition(origin, "t")})`;
  const fieldList = sql.join(
    fields.map((field) => sql`${field}`),
    sql`, `,
  );
  const naming = fields.length
    ? sql`exists (select 1 from preview_issues i where i.location_id = ${r}.location_id and i.record_type = ${r}.record_type and i.seq = ${r}.seq
                    and ${isReferenceIssue} and i.field in (${fieldList}) and ${targetIs})`
    : sql`false`;
  if (origin.kind === "missing" || origin.type !== type) return naming;
  return sql`(${rootCondition(origin, records)} or ${naming})`;
}

/** The root's own records, as `alias` (preview_records). */
function rootCondition(origin: Exclude<RootCauseOrigin, { kind: "missing" }>, alias: string): SQL {
  const records = sql.identifier(alias);
  if (origin.kind === "excluded") return sql`(${records}.status = 'excluded' and coalesce(${records}.excluded_reason, '') = ${origin.reason})`;
  return sql`exists (select 1 from preview_issues o where o.location_id = ${records}.location_id and o.record_type = ${records}.record_type
                       and o.seq = ${records}.seq and o.severity = ${origin.severity} and o.field = ${origin.field} and o.code = ${origin.code})`;
}

import { sql, type SQL } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { visibleLocationCondition } from "@/lib/auth/location-access";
import type { EnvironmentName } from "@/lib/environments/environment-inputs";
import { escapeLike, type FleetMatrixQuery, type FleetViewer } from "./fleet-inputs";
import { cellStateOf, freshForHours, matrixSteps, type MatrixCell, type MatrixStep } from "./step-freshness";
import { nowOf, type OperationContext } from "@/lib/operations/context";

export interface FleetMatrixRow {
  locationId: string;
  name: string;
  environment: EnvironmentName;
  attentionReason: string | null;
  /** It holds a location token: the schedule syncs only a connected location. */
  connected: boolean;
  schedulePaused: { at: Date; byEmail: string | null; reason: string | null } | null;
  cells: MatrixCell[];
  /** The location's newest session: its outcome (or that it runs) and the records its steps left out. */
  latestSession: LatestSession | null;
}

export interface LatestSession {
  id: string;
  status: string;
  recordsNotSent: number;
}

export interface FleetMatrixPage {
  rows: FleetMatrixRow[];
  total: number;
  page: number;
  pageCount: number;
}

type MatrixRecord = {
  id: string;
  name: string;
  environment: EnvironmentName;
  automotive: boolean;
  attention_reason: string | null;
  connected: boolean;
  schedule_paused_at: string | null;
  schedule_paused_by_email: string | null;
  schedule_pause_reason: string | null;
  total: number;
};

/** The same thresholds as cellStateOf, as SQL, so that the order agrees with the colours. */
function staleAfter(now: Date): SQL {
  const cases = matrixSteps.map((step) => sql`when ${step} then ${now.toISOString()}::timestamptz - ${freshForHours[step]}::int * interval '1 hour'`);
  return sql`(case step::text ${sql.join(cases, sql` `)} end)`;
}

/**
 * Locations × steps: each cell is the last ended run of that step (location_step_outcomes, kept
 * by a trigger) and how fresh it is. Worst first: needs attention, then most failed cells, then
 * most stale cells, then by name. One query; the page is numbered because the order is computed.
 */
export async function loadFleetMatrix(ctx: OperationContext<FleetViewer>, query: FleetMatrixQuery): Promise<FleetMatrixPage> {
  const { db, actor: viewer } = ctx;
  const now = nowOf(ctx);
  // Archived locations have no schedule and no fleet to watch.
  const filters: SQL[] = [visibleLocationCondition(viewer, "fleet.view", sql`l.id`), sql`l.archived_at is null`];
  if (query.environment) filters.push(sql`l.environment = ${query.environment}`);
  if (query.q) filters.push(sql`l.name ilike ${`%${escapeLike(query.q)}%`}`);
  const stepList = sql.join(
    matrixSteps.map((step) => sql`${step}`),
    sql`, `,
  );
  // The order needs only counts per location; the cells are read for the page's locations alone.
  const rows = await db.execute<MatrixRecord>(sql`
    with scoped as (
      select l.* from locations l where ${sql.join(filters, sql` and `)}
    ), per_location as (
      select location_id,
             count(*) filter (where status = 'failed') as failed_cells,
             count(*) filter (where status = 'succeeded' and finished_at < ${staleAfter(now)}) as stale_cells
      from location_step_outcomes
      where location_id in (select id from scoped) and step::text in (${stepList})
      group by location_id
    )
    select s.id, s.name, s.environment, s.automotive, s.attention_reason, s.location_token_encrypted is not null as connected,
           s.schedule_paused_at, s.schedule_paused_by_email, s.schedule_pause_reason, count(*) over ()::int as total
    from scoped s left join per_location p on p.location_id = s.id
    order by (s.attention_reason is not null) desc, coalesce(p.failed_cells, 0) desc, coalesce(p.stale_cells, 0) desc, lower(s.name), s.id
    limit ${query.limit} offset ${(query.page - 1) * query.limit}`);
  const locationIds = rows.map((row) => row.id);
  const [outcomes, latestSessions] = await Promise.all([outcomesOf(db, locationIds), latestSessionsOf(db, locationIds)]);
  const total = rows[0]?.total ?? (query.page > 1 ? await countScoped(db, filters) : 0);
  return {
    rows: rows.map((row) => ({
      locationId: row.id,
      name: row.name,
      environment: row.environment,
      attentionReason: row.attention_reason,
      connected: row.connected,
      schedulePaused: row.schedule_paused_at
        ? { at: new Date(row.schedule_paused_at), byEmail: row.schedule_paused_by_email, reason: row.schedule_pause_reason }
        : null,
      cells: matrixSteps.map((step: MatrixStep): MatrixCell => {
        const ended = outcomes.get(`${row.id} ${step}`) ?? null;
        return { step, state: cellStateOf(step, ended, row.automotive, now), at: ended?.at ?? null };
      }),
      latestSession: latestSessions.get(row.id) ?? null,
    })),
    total,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / query.limit)),
  };
}

async function outcomesOf(db: DatabaseOrTransaction, locationIds: string[]): Promise<Map<string, { status: "succeeded" | "failed"; at: Date }>> {
  if (locationIds.length === 0) return new Map();
  const rows = await db.execute<{ location_id: string; step: string; status: "succeeded" | "failed"; finished_at: string }>(sql`
    select location_id, step, status, finished_at from location_step_outcomes
    where location_id in (${sql.join(
      locationIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  return new Map(rows.map((row) => [`${row.location_id} ${row.step}`, { status: row.status, at: new Date(row.finished_at) }]));
}

/** Each location's newest session (sync_sessions_location_idx), with what its steps left out. */
async function latestSessionsOf(db: DatabaseOrTransaction, locationIds: string[]): Promise<Map<string, LatestSession>> {
  if (locationIds.length === 0) return new Map();
  const rows = await db.execute<{ location_id: string; id: string; status: string; records_not_sent: number }>(sql`
    select l.id as location_id, se.id, se.status,
           (select coalesce(sum(st.records_invalid + st.records_excluded), 0)::int from sync_steps st where st.session_id = se.id) as records_not_sent
    from unnest(array[${sql.join(
      locationIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}]) as l(id)
    cross join lateral (
      select id, status from sync_sessions where location_id = l.id order by created_at desc, id desc limit 1
    ) se`);
  return new Map(rows.map((row) => [row.location_id, { id: row.id, status: row.status, recordsNotSent: Number(row.records_not_sent) }]));
}

/** Past the last page the window function sees no rows: count separately so the page can say how many there are. */
async function countScoped(db: DatabaseOrTransaction, filters: SQL[]): Promise<number> {
  const [row] = await db.execute<{ total: number }>(sql`select count(*)::int as total from locations l where ${sql.join(filters, sql` and `)}`);
  return row?.total ?? 0;
}

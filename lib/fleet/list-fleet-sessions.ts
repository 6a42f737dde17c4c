import { sql, type SQL } from "drizzle-orm";
import { visibleLocationCondition } from "@/lib/auth/location-access";
import type { EnvironmentName } from "@/lib/environments/environment-inputs";
import { decodeFleetSessionCursor, encodeFleetSessionCursor } from "./fleet-session-cursor";
import { escapeLike, type FleetSessionQuery, type FleetViewer } from "./fleet-inputs";
import type { OperationContext } from "@/lib/operations/context";

export interface FleetSessionRow {
  id: string;
  locationId: string;
  locationName: string;
  environment: EnvironmentName;
  trigger: string;
  status: string;
  requestedByEmail: string | null;
  currentStep: string | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** A failure of the location's current "needs attention" episode. */
  needsAttention: boolean;
  /** Records its steps left out: invalid and excluded by rule. */
  recordsNotSent: number;
}

export interface FleetSessionPage {
  items: FleetSessionRow[];
  nextCursor: string | null;
}

type SessionRecord = {
  id: string;
  location_id: string;
  location_name: string;
  environment: EnvironmentName;
  trigger: string;
  status: string;
  requested_by_email: string | null;
  current_step: string | null;
  error: string | null;
  created_at: string;
  cursor_at: string;
  started_at: string | null;
  finished_at: string | null;
  priority: number;
  records_not_sent: number;
};

const inFlight = sql`se.status in ('queued', 'running')`;
// "l.attention_since is not null" lets the planner start from the few locations needing attention.
const failedNeedingAttention = sql`(l.attention_since is not null and se.status = 'failed' and se.finished_at >= l.attention_since)`;
const notFailedNeedingAttention = sql`not coalesce(se.status = 'failed' and se.finished_at >= l.attention_since, false)`;

/**
 * The fleet order in three sections, each read on its own so that each can use an index: in
 * flight (the one-open partial index), failures of a location's current "needs attention"
 * episode (few locations), then everything else newest first (sync_sessions_created_idx).
 */
const sections = [inFlight, sql`not ${inFlight} and ${failedNeedingAttention}`, sql`not ${inFlight} and ${notFailedNeedingAttention}`];

/** Sessions across every location the viewer may see, filtered in SQL and keyset-paginated. */
export async function listFleetSessions(ctx: OperationContext<FleetViewer>, query: FleetSessionQuery): Promise<FleetSessionPage> {
  const { db, actor: viewer } = ctx;
  const filters: SQL[] = [visibleLocationCondition(viewer, "session.view", sql`se.location_id`)];
  if (query.status) filters.push(sql`se.status = ${query.status}`);
  if (query.trigger) filters.push(sql`se.trigger = ${query.trigger}`);
  if (query.environment) filters.push(sql`se.environment = ${query.environment}`);
  if (query.q) filters.push(sql`l.name ilike ${`%${escapeLike(query.q)}%`}`);
  const utcDay = (day: string) => sql`${day}::date::timestamp at time zone 'UTC'`;
  if (query.ended) filters.push(sql`se.finished_at >= ${utcDay(query.ended)} and se.finished_at < ${utcDay(query.ended)} + interval '1 day'`);
  if (query.created) filters.push(sql`se.created_at >= ${utcDay(query.created)} and se.created_at < ${utcDay(query.created)} + interval '1 day'`);
  const after = query.after ? decodeFleetSessionCursor(query.after) : null;

  const rows: SessionRecord[] = [];
  for (let priority = after?.priority ?? 0; priority < sections.length && rows.length <= query.limit; priority++) {
    const keyset = after && after.priority === priority ? [sql`(se.created_at, se.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`] : [];
    const conditions = [...filters, sections[priority]!, ...keyset];
    rows.push(
      ...(await db.execute<SessionRecord>(sql`
        select se.id, se.location_id, l.name as location_name, se.environment, se.trigger, se.status, se.requested_by_email,
               se.current_step, se.error, se.created_at, se.started_at, se.finished_at, ${priority}::int as priority,
               (select coalesce(sum(st.records_invalid + st.records_excluded), 0)::int from sync_steps st where st.session_id = se.id) as records_not_sent,
               to_char(se.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at
        from sync_sessions se join locations l on l.id = se.location_id
        where ${sql.join(conditions, sql` and `)}
        order by se.created_at desc, se.id desc
        limit ${query.limit + 1 - rows.length}`)),
    );
  }
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => ({
      id: row.id,
      locationId: row.location_id,
      locationName: row.location_name,
      environment: row.environment,
      trigger: row.trigger,
      status: row.status,
      requestedByEmail: row.requested_by_email,
      currentStep: row.current_step,
      error: row.error,
      createdAt: new Date(row.created_at),
      startedAt: row.started_at ? new Date(row.started_at) : null,
      finishedAt: row.finished_at ? new Date(row.finished_at) : null,
      needsAttention: Number(row.priority) === 1,
      recordsNotSent: Number(row.records_not_sent),
    })),
    nextCursor:
      last && rows.length > query.limit
        ? encodeFleetSessionCursor({ priority: Number(last.priority), createdAt: last.cursor_at, id: last.id })
        : null,
  };
}

import { sql, type SQL } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import type { EnvironmentName } from "@/lib/environments/environment-inputs";
import { decodeFleetSessionCursor, encodeFleetSessionCursor } from "./fleet-session-cursor";
import { escapeLike, type FleetSessionQuery, type FleetViewer } from "./fleet-inputs";
import { visibleLocation } from "./viewer-scope";

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
};

/** Running and queued first, then failures still needing attention, then everything else; newest first within each. */
const priority = sql`(case
  when se.status in ('queued', 'running') then 0
  when se.status = 'failed' and l.attention_since is not null and se.finished_at >= l.attention_since then 1
  else 2 end)`;

/** Sessions across every location the viewer may see, filtered in SQL and keyset-paginated. */
export async function listFleetSessions(db: DatabaseOrTransaction, viewer: FleetViewer, query: FleetSessionQuery): Promise<FleetSessionPage> {
  const conditions: SQL[] = [visibleLocation(viewer, sql`se.location_id`)];
  if (query.status) conditions.push(sql`se.status = ${query.status}`);
  if (query.trigger) conditions.push(sql`se.trigger = ${query.trigger}`);
  if (query.environment) conditions.push(sql`se.environment = ${query.environment}`);
  if (query.q) conditions.push(sql`l.name ilike ${`%${escapeLike(query.q)}%`}`);
  if (query.after) {
    const after = decodeFleetSessionCursor(query.after);
    conditions.push(sql`(${priority} > ${after.priority} or (${priority} = ${after.priority} and (se.created_at, se.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)))`);
  }
  const rows = await db.execute<SessionRecord>(sql`
    select se.id, se.location_id, l.name as location_name, se.environment, se.trigger, se.status, se.requested_by_email,
           se.current_step, se.error, se.created_at, se.started_at, se.finished_at, ${priority}::int as priority,
           to_char(se.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at
    from sync_sessions se join locations l on l.id = se.location_id
    where ${sql.join(conditions, sql` and `)}
    order by ${priority}, se.created_at desc, se.id desc
    limit ${query.limit + 1}`);
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
      needsAttention: row.priority === 1,
    })),
    nextCursor: last && rows.length > query.limit ? encodeFleetSessionCursor({ priority: Number(last.priority), createdAt: last.cursor_at, id: last.id }) : null,
  };
}

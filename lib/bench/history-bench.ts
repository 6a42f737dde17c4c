// `npm run bench:history`: fills a fresh database with 100,000 sync sessions of one location (plus 11,112 of a
// second, so that there are 1,000,008 steps: nine per session) by bulk SQL, then times what the history page
// and the session page ask of the server: the newest page, a page ~100 pages deep (reached by following the
// cursors), and one whole session (steps, month imports and every HTTP attempt). Median and p95 of 30 runs
// each; exits 1 when a median reaches 200 ms. Uses a new database on DATABASE_URL's server when set, else a
// throwaway embedded PostgreSQL (nothing under .data/ is touched).
import { sql } from "drizzle-orm";
import { connectDatabase, type Database } from "@/db/client";
import { applyMigrations } from "@/db/migrate";
import { locations } from "@/db/schema";
import { listSessionHistory } from "@/lib/sync/read-session-history";
import { getSessionView } from "@/lib/sync/read-session-view";
import { SessionHistoryQuery } from "@/lib/sync/session-inputs";
import { createFreshDatabase } from "./fresh-database";
import { runBenchmark, runTimedScenarios } from "./time-runs";

const SESSIONS = 100_000;
const OTHER_LOCATION_SESSIONS = 11_112;
const DEEP_PAGE = 100;
const RUNS = 30;
const WARM_UP_RUNS = 3;
const MEDIAN_BUDGET_MS = 200;
/** The detailed session: a first sync's monthly appointment imports, each with a few HTTP attempts. */
const DETAIL_ITEMS = 80;
const ATTEMPTS_PER_ITEM = 4;

async function createLocation(db: Database, name: string): Promise<string> {
  const [row] = await db
    .insert(locations)
    .values({ name, timeZone: "Europe/Berlin", upstreamLocationId: `bench-${name}`, sourceKey: name })
    .returning({ id: locations.id });
  if (!row) throw new Error("location insert returned no row");
  return row.id;
}

/** Sessions five minutes apart going back in time, every step of each; a tenth failed at appointments. */
async function fillSessions(db: Database, locationId: string, count: number): Promise<void> {
  await db.execute(sql`
    insert into sync_sessions (location_id, environment, trigger, requested_by_email, "full", optional_steps, status, error, created_at, started_at, finished_at)
    select ${locationId}::uuid, 'staging', (array['schedule', 'manual', 'resume', 'cli'])[1 + n % 4]::sync_trigger,
           case when n % 4 = 1 then 'support@example.test' end, n % 50 = 0, '{calendars,service_categories,services}',
           (case when n % 10 = 0 then 'failed' else 'succeeded' end)::sync_session_status,
           case when n % 10 = 0 then 'The upstream answered 503 after 5 attempts' end,
           now() - n * interval '5 minutes', now() - n * interval '5 minutes' + interval '2 seconds', now() - n * interval '5 minutes' + interval '95 seconds'
    from generate_series(1, ${count}) as n`);
  await db.execute(sql`
    insert into sync_steps (session_id, name, position, status, attempts, records_sent, records_invalid, records_excluded, bytes, started_at, finished_at)
    select s.id, (enum_range(null::sync_step_name))[p + 1], p,
           (case when s.status = 'failed' and p = 6 then 'failed' when s.status = 'failed' and p > 6 then 'pending' else 'succeeded' end)::sync_step_status,
           1, 100 * p, p, p % 2, 20000 * p, s.started_at + p * interval '10 seconds', s.started_at + (p + 1) * interval '10 seconds'
    from sync_sessions s cross join generate_series(0, 8) as p
    where s.location_id = ${locationId}::uuid`);
}

/** The newest session gets month imports and HTTP attempts like a first sync's. */
async function detailSession(db: Database, locationId: string): Promise<string> {
  const rows = await db.execute<{ id: string }>(
    sql`select id from sync_sessions where location_id = ${locationId}::uuid order by created_at desc, id desc limit 1`,
  );
  const sessionId = rows[0]!.id;
  await db.execute(sql`
    insert into sync_step_items (step_id, key, position, status, records_sent, bytes, attempts, started_at, finished_at)
    select st.id, 'month ' || m, m, 'succeeded', 500, 120000, ${ATTEMPTS_PER_ITEM}, st.started_at, st.finished_at
    from sync_steps st cross join generate_series(1, ${DETAIL_ITEMS}) as m
    where st.session_id = ${sessionId}::uuid and st.name = 'appointments'`);
  await db.execute(sql`
    insert into sync_attempts (session_id, step_id, item_id, operation, attempt, method, path, status, duration_ms, retry_delay_ms, error, records, bytes, started_at)
    select ${sessionId}::uuid, i.step_id, i.id, 'batch_sync_appointments', a, case when a % 2 = 1 then 'POST' else 'PUT' end,
           '/v1/locations/bench/appointments/batch_sync_appointments', case when a = 1 then 503 else 200 end, 120, case when a = 1 then 800 end,
           case when a = 1 then 'HTTP 503: {"error":"unavailable"}' end, 500, 120000, now()
    from sync_step_items i join sync_steps st on st.id = i.step_id cross join generate_series(1, ${ATTEMPTS_PER_ITEM}) as a
    where st.session_id = ${sessionId}::uuid`);
  return sessionId;
}

/** Support staff: every location, every attempt (as the dashboard's support sees them). */
const benchViewer = { id: "00000000-0000-4000-8000-000000000000", role: "support" as const };

async function cursorOfPage(db: Database, locationId: string, page: number): Promise<string> {
  let after: string | undefined;
  for (let current = 1; current < page; current += 1) {
    const result = await listSessionHistory({ db, actor: benchViewer }, { ...SessionHistoryQuery.parse({ after }), locationId });
    if (!result.olderCursor) throw new Error(`only ${current} pages`);
    after = result.olderCursor;
  }
  return after!;
}

async function main() {
  console.log(`creating a fresh database with ${(SESSIONS + OTHER_LOCATION_SESSIONS).toLocaleString("en")} sessions and their steps…`);
  const fresh = await createFreshDatabase("bench_history");
  const connection = connectDatabase(fresh.url, { max: 2 });
  try {
    const db = connection.db;
    await applyMigrations(db);
    const seedStarted = performance.now();
    const locationId = await createLocation(db, "bench-history");
    await fillSessions(db, locationId, SESSIONS);
    await fillSessions(db, await createLocation(db, "bench-history-other"), OTHER_LOCATION_SESSIONS);
    const sessionId = await detailSession(db, locationId);
    await connection.sql`analyze`;
    const [counts] = await connection.sql<{ sessions: string; steps: string; attempts: string }[]>`
      select (select count(*) from sync_sessions) as sessions, (select count(*) from sync_steps) as steps, (select count(*) from sync_attempts) as attempts`;
    console.log(
      `seeded ${Number(counts!.sessions).toLocaleString("en")} sessions, ${Number(counts!.steps).toLocaleString("en")} steps, ` +
        `${Number(counts!.attempts).toLocaleString("en")} attempts in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    const deepStarted = performance.now();
    const deepCursor = await cursorOfPage(db, locationId, DEEP_PAGE);
    console.log(`followed ${DEEP_PAGE - 1} cursors to page ${DEEP_PAGE} in ${(performance.now() - deepStarted).toFixed(0)} ms`);
    const viewer = benchViewer;
    const scenarios: [string, () => Promise<unknown>][] = [
      ["history: newest page (50)", () => listSessionHistory({ db, actor: viewer }, { ...SessionHistoryQuery.parse({}), locationId })],
      ["history: failed only", () => listSessionHistory({ db, actor: viewer }, { ...SessionHistoryQuery.parse({ status: "failed" }), locationId })],
      [
        `history: page ${DEEP_PAGE} (by cursor)`,
        () => listSessionHistory({ db, actor: viewer }, { ...SessionHistoryQuery.parse({ after: deepCursor }), locationId }),
      ],
      [
        `session page (${DETAIL_ITEMS} imports, ${DETAIL_ITEMS * ATTEMPTS_PER_ITEM} attempts)`,
        () => getSessionView({ db, actor: viewer }, { sessionId }),
      ],
    ];
    const overBudget = await runTimedScenarios(scenarios, {
      runs: RUNS,
      warmUpRuns: WARM_UP_RUNS,
      budgetMs: MEDIAN_BUDGET_MS,
      isOver: (median) => median >= MEDIAN_BUDGET_MS,
      labelWidth: 48,
    });
    if (overBudget) process.exitCode = 1;
  } finally {
    await connection.close();
    await fresh.dispose();
  }
}

runBenchmark(main);

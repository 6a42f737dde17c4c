// `npm run bench:fleet [-- --locations 200 --contacts 300 --concurrency 4 --upstream-latency-ms 150]`: a fleet's day.
// Into a throwaway database it generates many small locations of realistic shape, each with its own location in the
// count-only sandbox, syncs them all once, then runs their daily incremental syncs (after a day's changes) twice: with
// one and with two worker processes (`npm run worker`, compiled, SYNC_WORKER_CONCURRENCY sessions each). Every location
// is due at the same moment (the worst case of a shared sync time). The sandbox holds every answer
// --upstream-latency-ms (a distant upstream's round trip and own time; 0: loopback, where a session is pure CPU).
// Prints sessions per worker-hour, the scaling from one to two workers, how long the last location waited past its
// sync time, and how many workers 10,000 locations need to finish inside their 09:00–19:00 window. Exits 1 when two
// workers do not finish clearly sooner than one.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { Command } from "commander";
import { inArray, sql } from "drizzle-orm";
import { connectDatabase, type Database } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { applyMigrations } from "@/db/migrate";
import { locations, syncSessions } from "@/db/schema";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemActorAs } from "@/lib/auth/permissions";
import { ensureWorkerBundle, workerNodeFlags } from "@/lib/build/build-workers";
import { childProcessEnvironment, getConfig, setEnvironment } from "@/lib/config/config";
import { generateSecretKey } from "@/lib/crypto/keyring";
import { pointEnvironmentAtSandbox } from "@/lib/environments/point-at-sandbox";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { connectLocation } from "@/lib/locations/connect-location";
import { systemContext } from "@/lib/operations/context";
import { createSandboxLocation, sandboxDemo } from "@/lib/sandbox/provision";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { requestSyncSession } from "@/lib/sync/request-session";
import { startCountOnlySandbox, type BenchSandbox } from "./bench-sandbox";
import { createFreshDatabase } from "./fresh-database";
import { percentile, runBenchmark } from "./time-runs";

const WINDOW_HOURS = 10;
const FLEET = 10_000;
/** Two workers must finish the day in at most this share of one worker's time. */
const SCALING_TARGET = 0.8;

const round = (value: number, digits = 1) => value.toFixed(digits);
const count = (value: number) => Math.round(value).toLocaleString("en");

/** One `npm run worker` process: the compiled worker bundle under the worker's node flags, on the bench's database. */
async function startWorker(concurrency: number): Promise<ChildProcess> {
  const bundle = await ensureWorkerBundle("worker-main", () => {});
  const child = spawn(process.execPath, [...workerNodeFlags, bundle], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: childProcessEnvironment({ SYNC_WORKER_CONCURRENCY: String(concurrency) }),
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("[worker] taking jobs")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`worker exited ${code}:\n${output}`)));
  });
  child.stdout!.resume();
  return child;
}

async function stopWorkers(workers: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve) => {
          worker.once("exit", () => resolve());
          worker.kill("SIGTERM");
        }),
    ),
  );
}

/** Waits until every session has finished, and the previews the first syncs queued too; fails on any failed session. */
async function waitForSessions(db: Database, sessionIds: readonly string[]) {
  for (;;) {
    const rows = await db
      .select({
        status: syncSessions.status,
        error: syncSessions.error,
        leaseOwner: syncSessions.leaseOwner,
        startedAt: syncSessions.startedAt,
        finishedAt: syncSessions.finishedAt,
      })
      .from(syncSessions)
      .where(inArray(syncSessions.id, [...sessionIds]));
    const [previews] = await queryRows<{ open: number }>(
      db,
      sql`select count(*)::int as open from preview_runs where status in ('queued', 'running')`,
    );
    if (rows.every((row) => row.status !== "queued" && row.status !== "running") && previews!.open === 0) {
      const failed = rows.filter((row) => row.status !== "succeeded");
      if (failed.length) throw new Error(`${failed.length} sessions did not succeed, e.g. ${failed[0]!.status}: ${failed[0]!.error}`);
      return rows;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A day of changes at every location: 1% of the customers edited, 1% of the upcoming appointments moved by a day. */
async function changeEveryLocation(db: Database, sourceKeys: readonly string[]): Promise<void> {
  const keys = sql.param([...sourceKeys]);
  await db.execute(sql`update demo_source.customers set last_name = coalesce(last_name, '') || '·', updated_at = now()
    where source_key = any(${keys}::text[]) and id % 100 = 0`);
  await db.execute(sql`update demo_source.appointments set starts_at = starts_at + interval '1 day', ends_at = ends_at + interval '1 day', updated_at = now()
    where source_key = any(${keys}::text[]) and starts_at >= current_date and id % 100 = 0`);
}

/** The most sessions one worker process ran at the same moment (the lease owner names the process: host:pid:…). */
function mostAtOnce(rows: readonly { leaseOwner: string | null; startedAt: Date | null; finishedAt: Date | null }[]): number {
  const byProcess = Map.groupBy(rows, (row) => row.leaseOwner?.split(":")[1] ?? "");
  let most = 0;
  for (const sessions of byProcess.values()) {
    // Ends sort before starts at the same instant: a slot handed on is not two at once.
    const events = sessions
      .flatMap((row) => [
        { at: row.startedAt!.getTime(), change: 1 },
        { at: row.finishedAt!.getTime(), change: -1 },
      ])
      .sort((a, b) => a.at - b.at || a.change - b.change);
    let running = 0;
    for (const event of events) most = Math.max(most, (running += event.change));
  }
  return most;
}

interface DayRun {
  workers: number;
  sessions: number;
  /** The most sessions one worker process ran at once. */
  atOnce: number;
  /** The median session, from its start to its end. */
  medianSessionSeconds: number;
  /** Answers of the sandbox per session (API and uploads), and bytes uploaded per session. */
  requestsPerSession: number;
  uploadBytesPerSession: number;
  /** From the moment every location was due until the last session finished. */
  drainSeconds: number;
  /** How long the last location waited past its sync time before its session started. */
  lastWaitSeconds: number;
  perWorkerHour: number;
}

async function runDay(db: Database, sandbox: BenchSandbox, locationIds: readonly string[], workers: number, concurrency: number): Promise<DayRun> {
  const processes = await Promise.all(Array.from({ length: workers }, () => startWorker(concurrency)));
  try {
    const uploadedBefore = await sandbox.stats();
    const due = Date.now();
    const sessionIds: string[] = [];
    for (const locationId of locationIds) {
      // As the CLI starts one: a scheduled session picked up outside its location's 09:00–19:00 would not start.
      const requested = await requestSyncSession(systemContext(db), { locationId, trigger: "cli", requestedByEmail: null });
      if (!requested.started) throw new Error(`no session for ${locationId}: ${requested.reason}`);
      sessionIds.push(requested.sessionId);
    }
    const rows = await waitForSessions(db, sessionIds);
    const drainSeconds = (Math.max(...rows.map((row) => row.finishedAt!.getTime())) - due) / 1000;
    const lastWaitSeconds = (Math.max(...rows.map((row) => row.startedAt!.getTime())) - due) / 1000;
    const [requests] = await queryRows<{ answered: number }>(
      db,
      sql`select count(*)::int as answered from sandbox.request_log where at >= ${new Date(due).toISOString()}::timestamptz`,
    );
    const uploadedAfter = await sandbox.stats();
    return {
      workers,
      sessions: rows.length,
      atOnce: mostAtOnce(rows),
      medianSessionSeconds: percentile(
        rows.map((row) => (row.finishedAt!.getTime() - row.startedAt!.getTime()) / 1000).sort((a, b) => a - b),
        0.5,
      ),
      requestsPerSession: requests!.answered / rows.length,
      uploadBytesPerSession: (uploadedAfter.bytes - uploadedBefore.bytes) / rows.length,
      drainSeconds,
      lastWaitSeconds,
      perWorkerHour: rows.length / (drainSeconds / 3600) / workers,
    };
  } finally {
    await stopWorkers(processes);
  }
}

async function main() {
  const options = new Command()
    .option("--locations <n>", "generated locations", "200")
    .option("--contacts <n>", "customers per location (appointments: the generator's visits per customer over a year)", "300")
    .option("--concurrency <n>", "SYNC_WORKER_CONCURRENCY of each worker process", "4")
    .option("--seed <n>", "generator seed", "11")
    .option("--upstream-latency-ms <ms>", "the sandbox holds every answer this long: a round trip plus the service's own time", "150")
    .parse()
    .opts<{ locations: string; contacts: string; concurrency: string; seed: string; upstreamLatencyMs: string }>();
  const concurrency = Number(options.concurrency);
  const latencyMs = Number(options.upstreamLatencyMs);
  await ensureWorkerBundle("worker-main", console.log);
  const fresh = await createFreshDatabase("bench_fleet");
  setEnvironment({ DATABASE_URL: fresh.url, SOURCE_DATABASE_URL: fresh.url, APP_SECRET_KEY: getConfig().APP_SECRET_KEY ?? generateSecretKey() });
  const connection = connectDatabase(fresh.url, { max: 4 });
  const { db } = connection;
  let sandbox: BenchSandbox | undefined;
  try {
    await applyMigrations(db);
    sandbox = await startCountOnlySandbox({ databaseUrl: fresh.url }, { latencyMs });
    await pointEnvironmentAtSandbox(
      { db, actor: systemActor },
      { name: "staging", apiBaseUrl: sandbox.apiBaseUrl, uploadOrigin: sandbox.uploadOrigin, credentials: sandboxDemo },
    );
    const owner = sandboxDemo.owners[0];
    const [ownerRow] = await queryRows<{ id: string }>(db, sql`select id from sandbox.users where email = ${owner.email}`);
    const generation = performance.now();
    const sourceKeys = await generateDemoSource(db, {
      locations: Number(options.locations),
      contacts: Number(options.contacts),
      years: 1,
      seed: Number(options.seed),
    });
    const locationIds: string[] = [];
    for (const [index, sourceKey] of sourceKeys.entries()) {
      const [source] = await queryRows<{ time_zone: string; country: string }>(
        db,
        sql`select time_zone, country from demo_source.locations where source_key = ${sourceKey}`,
      );
      const upstreamLocationId = await createSandboxLocation(db, { ownerId: ownerRow!.id, name: `Fleet ${index + 1}` });
      // Paused: the worker's own scheduler must not start sessions beside the ones the bench requests.
      const [location] = await db
        .insert(locations)
        .values({
          name: `Fleet ${index + 1}`,
          environment: "staging",
          upstreamLocationId,
          timeZone: source!.time_zone,
          country: source!.country,
          sourceKey,
          schedulePausedAt: new Date(),
          schedulePausedByEmail: "bench",
        })
        .returning({ id: locations.id });
      // One client address per connection: the per-address throttle guards people typing passwords, not this loop.
      const actor = systemActorAs("bench", `10.${(index >> 8) & 255}.${index & 255}.1`);
      await connectLocation({ db, actor }, { locationId: location!.id, email: owner.email, password: owner.password });
      locationIds.push(location!.id);
    }
    const [shape] = await queryRows<{ customers: number; appointments: number }>(
      db,
      sql`select (select count(*) from demo_source.customers)::int as customers, (select count(*) from demo_source.appointments)::int as appointments`,
    );
    console.log(
      `fleet: ${count(locationIds.length)} locations, ${count(shape!.customers / locationIds.length)} customers and ` +
        `${count(shape!.appointments / locationIds.length)} appointments each on average (generated and connected in ${round((performance.now() - generation) / 1000, 0)} s); ` +
        `worker processes run ${concurrency} sessions each (SYNC_WORKER_CONCURRENCY); every location due at the same moment; ` +
        `the sandbox holds every answer ${latencyMs} ms`,
    );

    const firstStart = performance.now();
    const firstWorkers = await Promise.all([startWorker(concurrency), startWorker(concurrency)]);
    try {
      const first = [];
      for (const locationId of locationIds) {
        const requested = await requestSyncSession(systemContext(db), { locationId, trigger: "cli", requestedByEmail: null });
        if (!requested.started) throw new Error(`no first sync for ${locationId}: ${requested.reason}`);
        first.push(requested.sessionId);
      }
      await waitForSessions(db, first);
    } finally {
      await stopWorkers(firstWorkers);
    }
    console.log(`first syncs (two workers, with the previews they queue): ${round((performance.now() - firstStart) / 1000)} s`);

    const runs: DayRun[] = [];
    for (const workers of [1, 2]) {
      await changeEveryLocation(db, sourceKeys);
      runs.push(await runDay(db, sandbox, locationIds, workers, concurrency));
    }
    // The database keeps one session in flight per location (sync_sessions_one_open); several at once per worker must not bend it.
    const [overlap] = await queryRows<{ sessions: number }>(
      db,
      sql`select count(*)::int as sessions from sync_sessions a join sync_sessions b on a.location_id = b.location_id and a.id < b.id
        where a.started_at < b.finished_at and b.started_at < a.finished_at`,
    );
    if (overlap!.sessions) throw new Error(`${overlap!.sessions} pairs of sessions of one location ran at the same time`);
    const [one, two] = runs as [DayRun, DayRun];
    const scaling = one.drainSeconds / two.drainSeconds;
    const needed = Math.ceil(FLEET / (two.perWorkerHour * WINDOW_HOURS));
    console.log("");
    console.log(
      "| Upstream latency | Workers | Sessions | Answers per session | Median session | Most at once per worker | Day drained in | Last location waited | Sessions per worker-hour |",
    );
    console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const run of runs)
      console.log(
        `| ${latencyMs} ms | ${run.workers} | ${count(run.sessions)} | ${round(run.requestsPerSession)} | ${round(run.medianSessionSeconds)} s | ${run.atOnce} | ${round(run.drainSeconds)} s | ` +
          `${round(run.lastWaitSeconds)} s | ${count(run.perWorkerHour)} |`,
      );
    console.log("");
    console.log(
      `answers: of the sandbox's API and upload addresses; uploaded per session: ${runs.map((run) => `${round(run.uploadBytesPerSession / 1024)} KB`).join(" and ")}; ` +
        "no two sessions of one location overlapped",
    );
    console.log("");
    console.log(
      `scaling from one to two workers: ×${round(scaling, 2)} faster (two workers take ${round((two.drainSeconds / one.drainSeconds) * 100, 0)}% of one's time)`,
    );
    console.log(
      `${count(FLEET)} locations inside their ${WINDOW_HOURS}-hour window (09:00–19:00) at ${count(two.perWorkerHour)} sessions per worker-hour: ${needed} worker process${needed === 1 ? "" : "es"} (${concurrency} sessions each)`,
    );
    const met = two.drainSeconds <= SCALING_TARGET * one.drainSeconds;
    console.log(`${met ? "✓" : "✗"} two workers finish the day in ≤ ${SCALING_TARGET * 100}% of one worker's time`);
    if (!met) process.exitCode = 1;
  } finally {
    await stopJobSender();
    await sandbox?.stop();
    await connection.close();
    await fresh.dispose();
  }
}

runBenchmark(main);

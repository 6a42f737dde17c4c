// `npm run sandbox`: the upstream simulator on its own, API and upload addresses on two ports.
import { Command } from "commander";
import { connectDatabase } from "@/db/client";
import { startEmbeddedPostgres, type EmbeddedServer } from "@/db/embedded";
import { applyMigrations } from "@/db/migrate";
import { getConfig } from "@/lib/config/config";
import { areFaultsEnabled } from "./fault-policy";
import { ensureSandboxDemo } from "./provision";
import { readResponseShapeSetting } from "./response-shapes";
import { startSandboxServer } from "./server";

const log = (line: string) => console.log(`[sandbox] ${line}`);

async function main() {
  const options = new Command()
    .name("sandbox")
    .description("Simulator of the Marketing Automation Service (upstream) for tests and local clients")
    .option("--api-port <port>", "port of the API", "4010")
    .option("--upload-port <port>", "port of the upload addresses", "4011")
    .option("--host <host>", "address to bind", "127.0.0.1")
    .option("--count-only", "count upload records and bytes without validating or storing them (benchmarks)", false)
    .option("--latency-ms <ms>", "hold every answer this long, as a distant upstream would (benchmarks)", "0")
    .option("--database-url <url>", "PostgreSQL to keep state in (default DATABASE_URL, else an embedded one in --data-dir)")
    .option("--data-dir <dir>", "folder of the embedded PostgreSQL (one sandbox process per folder)", ".data/sandbox")
    .parse()
    .opts<{ apiPort: string; uploadPort: string; host: string; countOnly: boolean; latencyMs: string; databaseUrl?: string; dataDir: string }>();
  const latencyMs = Number(options.latencyMs);
  if (!Number.isFinite(latencyMs) || latencyMs < 0) throw new Error("--latency-ms: a number of milliseconds, at least 0");
  const responseShape = readResponseShapeSetting();

  let embedded: EmbeddedServer | undefined;
  let url = options.databaseUrl ?? getConfig().DATABASE_URL;
  if (!url) {
    log(`no DATABASE_URL: starting an embedded PostgreSQL in ${options.dataDir}`);
    embedded = await startEmbeddedPostgres({ dataDir: options.dataDir }).catch((error: unknown) => {
      throw new Error(
        `the embedded PostgreSQL in ${options.dataDir} did not start (${error instanceof Error ? error.message : String(error)}); ` +
          "if another sandbox process uses that folder, pass --data-dir <other folder> or --database-url",
      );
    });
    url = embedded.url;
  }
  const connection = connectDatabase(url);
  await applyMigrations(connection.db);
  const demo = await ensureSandboxDemo(connection.db, { responseShape });
  const server = await startSandboxServer({
    db: connection.db,
    host: options.host,
    apiPort: Number(options.apiPort),
    uploadPort: Number(options.uploadPort),
    countOnly: options.countOnly,
    latencyMs,
  });

  log(`API      ${server.apiBaseUrl}   (base_url; endpoints at ${server.apiBaseUrl}/v1/...)`);
  log(`uploads  ${server.uploadOrigin}/uploads/<one-time token>`);
  log(`stats    GET ${server.apiBaseUrl}/__sandbox/stats${options.countOnly ? "   (count-only mode)" : ""}`);
  if (areFaultsEnabled()) log(`faults   POST/DELETE ${server.apiBaseUrl}/__sandbox/faults`);
  if (latencyMs > 0) log(`latency  every answer held ${latencyMs} ms`);
  log(`bodies the spec does not show: ${responseShape} (SANDBOX_RESPONSE_SHAPE)`);
  log(`demo credentials (fixed, local simulator only):`);
  log(`  x-api-key ${demo.apiKey}  client_id ${demo.clientId}  client_secret ${demo.clientSecret}  data source ${demo.dataSourceName}`);
  for (const owner of demo.owners) log(`  owner    ${owner.email} / ${owner.password}  locations ${owner.locationIds.join(", ")}`);
  for (const stranger of demo.strangers) log(`  no locations ${stranger.email} / ${stranger.password}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    await server.close();
    await connection.close();
    await embedded?.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error("[sandbox] failed to start:", error instanceof Error ? error.message : String(error));
  process.exit(1);
});

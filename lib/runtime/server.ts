// `npm start` / `npm run serve`: the dashboard, its database and (by default) a job worker in one process.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import path from "node:path";
import next from "next";
import { closeDatabase, getDatabase } from "@/db/client";
import { getConfig, setEnvironment, setEnvironmentDefaults } from "@/lib/config/config";
import { readOrCreateSecretFile } from "@/db/embedded";
import { trustsProxy } from "@/lib/http/client-address";
import { startJobEngine, type JobEngine } from "@/lib/jobs/job-engine";
import { firstLineOfError, installLogRedaction } from "@/lib/logging/safe-error";
import { assertProductionConfiguration, ConfigurationError, dataDirectory, isProductionMode } from "./mode";
import { applyRequestPolicies } from "./request-policies";
import { sandboxDemo } from "@/lib/sandbox/provision";
import { ensureDemoSource } from "@/lib/source/demo/ensure-demo-source";
import { demoUsers, pointStagingAtSandbox, seedDemoLocations, seedDemoUsers } from "./seed-demo";
import { startDatabase } from "./start-database";

const log = (line: string) => console.log(`[location-sync] ${line}`);

async function main() {
  installLogRedaction();
  const dev = process.argv.includes("--dev");
  if (!dev) setEnvironmentDefaults({ NODE_ENV: "production" });
  // Every variable is checked here, before anything starts: an invalid one ends the start with its name and rule.
  const config = getConfig();
  const port = config.PORT;
  const production = isProductionMode(config);
  const host = config.HOST ?? (production ? "0.0.0.0" : "127.0.0.1");
  assertProductionConfiguration(config);

  const database = await startDatabase();
  if (!production && !config.NEXTAUTH_SECRET) {
    setEnvironment({
      NEXTAUTH_SECRET: await readOrCreateSecretFile(path.join(dataDirectory(), "nextauth-secret"), () => randomBytes(32).toString("base64")),
    });
  }
  setEnvironmentDefaults({ NEXTAUTH_URL: `http://localhost:${port}` });
  setEnvironmentDefaults({ APP_ORIGIN: getConfig().NEXTAUTH_URL });
  if (!production) {
    await seedDemoUsers(getDatabase());
    await seedDemoLocations(getDatabase());
    await ensureDemoSource(getDatabase());
    await pointStagingAtSandbox(getDatabase(), port);
  }

  const app = next({ dev, dir: process.cwd(), hostname: host, port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const trustProxy = trustsProxy();
  const server = createServer((request, response) => {
    if (applyRequestPolicies(request, response, { dev, trustProxy })) void handle(request, response);
  });

  const runWorker = config.RUN_WORKER;
  const jobs: JobEngine = await startJobEngine({ databaseUrl: database.url, work: runWorker, log });

  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  printBanner({ port, production, embedded: database.embedded, runWorker });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    server.close();
    server.closeAllConnections();
    await jobs.stop().catch(() => {});
    await closeDatabase().catch(() => {});
    await database.stop().catch((error) => log(`database stop: ${String(error)}`));
    log("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

function printBanner(info: { port: number; production: boolean; embedded: boolean; runWorker: boolean }) {
  const lines = [
    `Location Sync is ready on http://localhost:${info.port}`,
    `database: ${info.embedded ? `embedded PostgreSQL (data in ${dataDirectory()})` : "DATABASE_URL"} · job worker in this process: ${info.runWorker ? "yes" : "no"}`,
  ];
  if (!info.production) {
    lines.push("Demo users (embedded default only):");
    for (const user of demoUsers) lines.push(`  ${user.role.padEnd(9)} ${user.email.padEnd(22)} ${user.password}`);
    lines.push(`Sandbox (staging points at http://127.0.0.1:${info.port}/sandbox/api) owner accounts:`);
    for (const owner of sandboxDemo.owners)
      lines.push(`  ${owner.email.padEnd(22)} ${owner.password.padEnd(20)} owns ${owner.locations.map((l) => l.id).join(", ")}`);
  }
  console.log(lines.map((line) => `[location-sync] ${line}`).join("\n"));
}

main().catch((error) => {
  const message = error instanceof ConfigurationError ? error.message : `failed to start: ${firstLineOfError(error)}`;
  console.error(`[location-sync] ${message}`);
  process.exit(1);
});

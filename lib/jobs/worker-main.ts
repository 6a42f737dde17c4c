// `npm run worker`: a standalone worker process on the same database as the dashboard. Run compiled, not under tsx:
// lib/build/build-workers.ts bundles this file (anything it imports must work from the bundle, see there).
import { closeDatabase, getDatabase } from "@/db/client";
import { getConfig } from "@/lib/config/config";
import { firstLineOfError, installLogRedaction } from "@/lib/logging/safe-error";
import { startDatabase } from "@/lib/runtime/start-database";
import { assertProductionConfiguration } from "@/lib/runtime/mode";
import { startWorkerHealthServer, workerHealthPort } from "@/lib/runtime/worker-health";
import { startJobEngine } from "./job-engine";

async function main() {
  installLogRedaction();
  // Every variable is checked here, before anything starts: an invalid one ends the start with its name and rule.
  const config = getConfig();
  assertProductionConfiguration(config);
  const healthPort = workerHealthPort(config);
  const database = await startDatabase();
  const engine = await startJobEngine({ databaseUrl: database.url, work: true });
  let stopping = false;
  const health = healthPort
    ? await startWorkerHealthServer({
        port: healthPort,
        host: config.WORKER_HEALTH_HOST,
        database: getDatabase,
        takingJobs: () => !stopping,
      })
    : null;
  console.log(
    `[worker] taking jobs (pid ${process.pid})${health ? `; readiness at GET http://${config.WORKER_HEALTH_HOST}:${healthPort}/health` : ""}`,
  );
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[worker] ${signal}: finishing current jobs`);
    await engine.stop();
    health?.close();
    await closeDatabase();
    await database.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  console.error(`[worker] ${firstLineOfError(error)}`);
  process.exit(1);
});

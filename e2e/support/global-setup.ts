import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { findFreePort } from "../../db/embedded";
import { canary } from "./canary-values";

export const LOG_FILE = path.resolve("e2e/.artifacts/server.log");

/**
 * Starts the built dashboard exactly as `npm run serve` does, on the embedded
 * default in a fresh data folder, with canary secrets, and captures every log line.
 */
export default async function globalSetup() {
  if (process.env.DATABASE_URL && !/@(127\.0\.0\.1|localhost)[:/]/.test(process.env.DATABASE_URL)) {
    throw new Error("e2e refuses to run against a database that is not local.");
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "location-sync-e2e-"));
  const port = await findFreePort();
  await mkdir(path.dirname(LOG_FILE), { recursive: true });
  const log = createWriteStream(LOG_FILE);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    NEXTAUTH_SECRET: canary.sessionSecret,
    APP_SECRET_KEY: canary.appSecretKey,
    // The sessions spec injects upstream faults through the built sandbox's control API.
    SANDBOX_FAULTS: "on",
    // The engine still makes every attempt of a failing step; the specs need not wait seconds between them.
    SYNC_STEP_BACKOFF_MS: "100",
    // …nor between the client's retries of one request (the sessions spec's 503 is asked 15 times).
    SYNC_REQUEST_BACKOFF_MS: "20",
  };
  delete env.DATABASE_URL;
  const server = spawn(process.execPath, ["--import", "tsx", "lib/runtime/server.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  server.stdout.pipe(log, { end: false });
  server.stderr.pipe(log, { end: false });

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the dashboard did not start within 120 s; see e2e/.artifacts/server.log")), 120_000);
    server.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("is ready on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    server.on("exit", (code) => reject(new Error(`the dashboard exited with ${code}; see e2e/.artifacts/server.log`)));
  });

  process.env.E2E_BASE_URL = `http://127.0.0.1:${port}`;
  process.env.E2E_SERVER_PID = String(server.pid);
  process.env.E2E_DATA_DIR = dataDir;
  return async () => {
    await new Promise<void>((resolve) => {
      server.once("exit", () => resolve());
      server.kill("SIGTERM");
      setTimeout(() => {
        server.kill("SIGKILL");
        resolve();
      }, 20_000).unref();
    });
    log.end();
    await rm(dataDir, { recursive: true, force: true });
  };
}

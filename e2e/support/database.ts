import { readFileSync } from "node:fs";
import path from "node:path";
import { connectDatabase, type DatabaseConnection } from "../../db/client";
import { runningEmbeddedPort } from "../../lib/runtime/start-database";

/** A connection to the embedded database of the dashboard under test (its data folder is E2E_DATA_DIR). */
export function connectToAppDatabase(): DatabaseConnection {
  return connectDatabase(appDatabaseUrl(), { max: 2 });
}

/** The address of that database, for a process of its own (the CLI). */
export function appDatabaseUrl(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run through playwright (global setup starts the app)");
  const port = runningEmbeddedPort(dataDir);
  if (!port) throw new Error(`no embedded PostgreSQL runs under ${dataDir}`);
  const password = readFileSync(path.join(dataDir, "postgres-password"), "utf8").trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/location_sync`;
}

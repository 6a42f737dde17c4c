import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { readOrCreateSecretFile, startEmbeddedPostgres } from "@/db/embedded";
import { connectDatabase } from "@/db/client";
import { applyMigrations } from "@/db/migrate";
import { dataDirectory, isEmbeddedMode } from "./mode";

export interface RuntimeDatabase {
  url: string;
  embedded: boolean;
  /** Stops the embedded server if this process started it. */
  stop: () => Promise<void>;
}

/** The port of an embedded server another process of ours already runs on this data folder. */
export function runningEmbeddedPort(dataDir: string): number | null {
  const pidFile = path.join(dataDir, "postgres", "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const [pidLine, , , portLine] = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(pidLine);
  try {
    process.kill(pid, 0);
  } catch {
    return null;
  }
  return Number(portLine) || null;
}

/**
 * DATABASE_URL when the operator set it; otherwise the embedded PostgreSQL under
 * DATA_DIR (.data), started here or reused when the dashboard already runs it.
 * Migrations are applied either way; DATABASE_URL is set for the rest of the process.
 */
export async function startDatabase(options: { log?: (line: string) => void; port?: number } = {}): Promise<RuntimeDatabase> {
  let url = process.env.DATABASE_URL;
  let stop = async () => {};
  const embedded = isEmbeddedMode();
  if (embedded) {
    const dataDir = dataDirectory();
    const password = await readOrCreateSecretFile(path.join(dataDir, "postgres-password"), () => randomBytes(18).toString("base64url"));
    const port = runningEmbeddedPort(dataDir);
    if (port) {
      url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/location_sync`;
    } else {
      const server = await startEmbeddedPostgres({ dataDir, port: options.port, log: options.log });
      url = server.url;
      stop = server.stop;
    }
    process.env.DATABASE_URL = url;
    process.env.LOCATION_SYNC_EMBEDDED = "1";
  }
  if (!url) throw new Error("unreachable: no database URL");
  const migrator = connectDatabase(url, { max: 1 });
  try {
    await applyMigrations(migrator.db);
  } finally {
    await migrator.close();
  }
  return { url, embedded, stop };
}

import { runningEmbeddedServer, startOrAdoptEmbeddedPostgres } from "@/db/embedded";
import { connectDatabase } from "@/db/client";
import { applyMigrations } from "@/db/migrate";
import { getConfig, setEnvironment } from "@/lib/config/config";
import { dataDirectory, isEmbeddedMode } from "./mode";

export interface RuntimeDatabase {
  url: string;
  embedded: boolean;
  /** Stops the embedded server if this process started or adopted it. */
  stop: () => Promise<void>;
}

/** The port of an embedded server another process of ours already runs on this data folder. */
export function runningEmbeddedPort(dataDir: string): number | null {
  return runningEmbeddedServer(dataDir)?.port ?? null;
}

/**
 * DATABASE_URL when the operator set it; otherwise the embedded PostgreSQL under
 * DATA_DIR (.data): started here, shared when the dashboard already runs it, or adopted when the process that
 * started it was killed (then stopped by this one's clean shutdown).
 * Migrations are applied either way; DATABASE_URL is set for the rest of the process.
 */
export async function startDatabase(options: { log?: (line: string) => void; port?: number } = {}): Promise<RuntimeDatabase> {
  let url = getConfig().DATABASE_URL;
  let stop = async () => {};
  const embedded = isEmbeddedMode();
  if (embedded) {
    const server = await startOrAdoptEmbeddedPostgres({ dataDir: dataDirectory(), port: options.port, log: options.log });
    if (server.mode === "adopted") {
      console.log("[location-sync] adopted the embedded PostgreSQL left running by a process that ended; it stops when this one shuts down");
    }
    url = server.url;
    stop = server.stop;
    setEnvironment({ DATABASE_URL: url, LOCATION_SYNC_EMBEDDED: "1" });
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

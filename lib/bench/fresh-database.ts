import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { startEmbeddedPostgres } from "@/db/embedded";
import { getConfig } from "@/lib/config/config";

export interface FreshDatabase {
  url: string;
  dispose: () => Promise<void>;
}

/**
 * A new, empty database for one benchmark: on DATABASE_URL's server when set,
 * else a throwaway embedded PostgreSQL (nothing under .data/ is touched).
 */
export async function createFreshDatabase(prefix: string): Promise<FreshDatabase> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const serverUrl = getConfig().DATABASE_URL;
  if (serverUrl) {
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      dispose: async () => {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${prefix}-`));
  const server = await startEmbeddedPostgres({ dataDir, database: name });
  return {
    url: server.url,
    dispose: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

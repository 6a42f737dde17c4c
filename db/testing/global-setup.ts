import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../embedded";

declare module "vitest" {
  export interface ProvidedContext {
    testDatabaseServerUrl: string;
  }
}

/** One PostgreSQL for the run (embedded, or DATABASE_URL); each test file gets its own database in it. */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide("testDatabaseServerUrl", process.env.DATABASE_URL);
    return;
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "location-sync-test-"));
  const server = await startEmbeddedPostgres({ dataDir, database: "postgres" });
  project.provide("testDatabaseServerUrl", server.url);
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}

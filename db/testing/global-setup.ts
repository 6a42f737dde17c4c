import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { connectDatabase } from "../client";
import { startEmbeddedPostgres } from "../embedded";
import { applyMigrations } from "../migrate";

declare module "vitest" {
  export interface ProvidedContext {
    testDatabaseServerUrl: string;
    testDatabaseTemplate: string;
  }
}

/**
 * One PostgreSQL for the run (embedded, or DATABASE_URL), and in it one migrated template database: each test file
 * gets its own copy of it (a file copy, not the migrations again).
 */
export default async function setup(project: TestProject) {
  const external = process.env.DATABASE_URL;
  const dataDir = external ? undefined : await mkdtemp(path.join(os.tmpdir(), "location-sync-test-"));
  const server = dataDir ? await startEmbeddedPostgres({ dataDir, database: "postgres" }) : undefined;
  const serverUrl = external ?? server!.url;
  const template = await createMigratedTemplate(serverUrl);
  project.provide("testDatabaseServerUrl", serverUrl);
  project.provide("testDatabaseTemplate", template.name);
  return async () => {
    await template.drop();
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
}

async function createMigratedTemplate(serverUrl: string) {
  const name = `test_template_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // Closed before any copy: PostgreSQL copies a database only while nobody is connected to it.
  const connection = connectDatabase(url.toString(), { max: 1 });
  await applyMigrations(connection.db);
  await connection.close();
  return {
    name,
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

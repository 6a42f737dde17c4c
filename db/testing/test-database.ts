import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, inject } from "vitest";
import { connectDatabase, type DatabaseConnection } from "../client";

export interface TestDatabase extends DatabaseConnection {
  url: string;
}

/**
 * A fresh, migrated database for the calling test file (a copy of the run's migrated template), dropped when the file ends.
 * Also installs it as the process-wide DATABASE_URL so lib/ code under test uses it.
 */
export async function useTestDatabase(): Promise<TestDatabase> {
  const serverUrl = new URL(inject("testDatabaseServerUrl"));
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${inject("testDatabaseTemplate")}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const connection = connectDatabase(url.toString(), { max: 5 });
  process.env.DATABASE_URL = url.toString();
  afterAll(async () => {
    const { closeDatabase } = await import("../client");
    await closeDatabase();
    await connection.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return { ...connection, url: url.toString() };
}

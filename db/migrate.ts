import path from "node:path";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import type { Database } from "./client";

export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

/** Applies the committed drizzle-kit migrations; safe to run from several processes (advisory lock). */
export async function applyMigrations(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute("select pg_advisory_xact_lock(732104551)");
  });
  await migrate(db, { migrationsFolder, migrationsSchema: "drizzle" });
}

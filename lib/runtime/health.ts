import { z } from "zod";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { migrationsFolder } from "@/db/migrate";

export interface HealthReport {
  ok: boolean;
  /** For the log only, never for the caller: which check failed. */
  failed?: "database" | "migrations";
}

const checkTimeoutMs = 3_000;
let newestMigration: number | undefined;

/** The `when` of the newest migration this build ships: drizzle records it as created_at once applied. */
function newestMigrationMillis(): number {
  if (newestMigration === undefined) {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
    newestMigration = Math.max(...journal.entries.map((entry) => entry.when));
  }
  return newestMigration;
}

/**
 * Ready to serve: the database answers within a few seconds and every migration this build ships is applied. A load
 * balancer or supervisor polls this; it never waits on a hung connection for long.
 */
export async function checkHealth(db: Database): Promise<HealthReport> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<HealthReport>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, failed: "database" }), checkTimeoutMs);
  });
  const check = (async (): Promise<HealthReport> => {
    let applied: number | null;
    try {
      const [row] = await queryRows<{ newest: string | null }>(db, sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`);
      applied = row?.newest ? Number(row.newest) : null;
    } catch (error) {
      // No migrations table yet reads as "not migrated"; anything else as "no database".
      return {
        ok: false,
        failed: (error as { code?: string }).code === "42P01" || (error as { code?: string }).code === "3F000" ? "migrations" : "database",
      };
    }
    return applied !== null && applied >= newestMigrationMillis() ? { ok: true } : { ok: false, failed: "migrations" };
  })();
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What GET /api/health answers: a status word, no internals. */
export const HealthStatus = z.object({ status: z.enum(["ok", "unavailable"]) });

/** The answer of GET /api/health and the worker's health endpoint: a status word, no internals. */
export async function healthResponse(db: Database, log: (line: string) => void = (line) => console.error(line)): Promise<Response> {
  const report = await checkHealth(db);
  if (!report.ok) log(`[health] unavailable: ${report.failed === "migrations" ? "migrations not applied" : "database not reachable"}`);
  const body: z.infer<typeof HealthStatus> = { status: report.ok ? "ok" : "unavailable" };
  return Response.json(body, { status: report.ok ? 200 : 503, headers: { "cache-control": "no-store" } });
}

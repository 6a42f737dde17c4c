import { spawn } from "node:child_process";
import path from "node:path";
import { PgBoss } from "pg-boss";
import { afterAll, describe, expect, it } from "vitest";
import { findFreePort } from "@/db/embedded";
import { auditLog } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { pruneAuditLogJob } from "./prune-audit-log";

const testDb = await useTestDatabase();
const root = path.resolve(import.meta.dirname, "../..");
const healthPort = await findFreePort();

describe("npm run worker", () => {
  // Node itself (not the tsx wrapper) so the signal reaches the worker's own handler.
  const worker = spawn(process.execPath, ["--import", "tsx", path.join(root, "lib/jobs/worker-main.ts")], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "development",
      DATABASE_URL: testDb.url,
      WORKER_HEALTH_PORT: String(healthPort),
    },
  });
  let output = "";
  worker.stdout.on("data", (chunk) => (output += chunk));
  worker.stderr.on("data", (chunk) => (output += chunk));
  const sender = new PgBoss({ connectionString: testDb.url, schema: "pgboss", max: 2 });
  // Kept, not thrown: dropping the test database at teardown ends the pool's idle connections with an error event.
  const senderErrors: unknown[] = [];
  sender.on("error", (error) => senderErrors.push(error));

  afterAll(async () => {
    await sender.stop({ graceful: false });
    if (worker.exitCode === null) {
      const exited = new Promise((resolve) => worker.once("exit", resolve));
      worker.kill("SIGTERM");
      await exited;
    }
  });

  it("a standalone worker process answers its readiness check, takes jobs from the shared database and stops on SIGTERM", async () => {
    for (let i = 0; i < 150 && !output.includes("taking jobs"); i++) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(output).toContain("[worker] taking jobs");
    // The readiness check a supervisor calls.
    const health = await fetch(`http://127.0.0.1:${healthPort}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });

    await testDb.db
      .insert(auditLog)
      .values({ action: "auth.sign_in", actorEmail: "ancient@example.test", at: new Date(Date.now() - 90 * 86_400_000) });
    await sender.start();
    const jobId = await pruneAuditLogJob.send(sender, { olderThanDays: 30 });
    let state: string | undefined;
    for (let i = 0; i < 150 && state !== "completed"; i++) {
      state = (await sender.getJobById(pruneAuditLogJob.name, jobId!))?.state;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(state).toBe("completed");
    expect(await testDb.db.select().from(auditLog)).toHaveLength(0);
    expect(senderErrors).toEqual([]);

    const exited = new Promise<number | null>((resolve) => worker.once("exit", resolve));
    worker.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});

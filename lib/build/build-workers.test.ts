import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { utimes } from "node:fs/promises";
import path from "node:path";
import { PgBoss } from "pg-boss";
import { afterAll, describe, expect, it } from "vitest";
import { auditLog } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { pruneAuditLogJob } from "@/lib/jobs/prune-audit-log";
import { bundlePath, ensureWorkerBundle, isBundleStale, workerNodeFlags } from "./build-workers";

const testDb = await useTestDatabase();
const root = path.resolve(import.meta.dirname, "../..");
const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

describe("compiled workers", () => {
  it("npm run worker runs the compiled worker with the workers' node flags; npm run build builds it", () => {
    expect(scripts.worker).toBe(
      `node lib/build/build-workers.ts --if-stale worker-main && exec node ${workerNodeFlags.join(" ")} ${path.relative(root, bundlePath("worker-main"))}`,
    );
    expect(scripts.build).toContain("npm run build:worker");
    expect(scripts["build:worker"]).toBe("node lib/build/build-workers.ts worker-main");
  });

  it("npm run cli runs the compiled CLI (the one the CLI tests run), built first when stale", () => {
    expect(scripts.cli).toBe(`node lib/build/build-workers.ts --if-stale cli && exec node ${path.relative(root, bundlePath("cli"))}`);
  });

  it("a bundle is stale when older than its inputs, fresh after a build", async () => {
    await ensureWorkerBundle("worker-main");
    expect(await isBundleStale("worker-main")).toBe(false);
    await utimes(bundlePath("worker-main"), new Date(0), new Date(0));
    expect(await isBundleStale("worker-main")).toBe(true);
    await ensureWorkerBundle("worker-main");
    expect(await isBundleStale("worker-main")).toBe(false);
  });

  it("builds a stale bundle once for callers of one process that ask at the same time (two workers started together)", async () => {
    await utimes(bundlePath("worker-main"), new Date(0), new Date(0));
    const builds: string[] = [];
    const log = (line: string) => builds.push(line);
    const [first, second] = await Promise.all([ensureWorkerBundle("worker-main", log), ensureWorkerBundle("worker-main", log)]);
    expect(second).toBe(first);
    expect(builds).toHaveLength(1);
    expect(await isBundleStale("worker-main")).toBe(false);
  });

  describe("npm run worker", () => {
    let worker: ChildProcessWithoutNullStreams | undefined;
    const sender = new PgBoss({ connectionString: testDb.url, schema: "pgboss", max: 2 });
    // Kept, not thrown: dropping the test database at teardown ends the pool's idle connections with an error event.
    const senderErrors: unknown[] = [];
    sender.on("error", (error) => senderErrors.push(error));

    afterAll(async () => {
      await sender.stop({ graceful: false });
      if (worker && worker.exitCode === null) {
        const exited = new Promise((resolve) => worker!.once("exit", resolve));
        worker.kill("SIGTERM");
        await exited;
      }
    });

    it("starts the compiled worker, which takes jobs from the shared database and stops on SIGTERM", async () => {
      // Through npm, as operators start it: `exec` leaves node itself as npm's child, so npm's SIGTERM reaches its handler.
      const started = spawn("npm", ["run", "--silent", "worker"], {
        cwd: root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "development", DATABASE_URL: testDb.url },
      });
      worker = started;
      let output = "";
      started.stdout.on("data", (chunk) => (output += chunk));
      started.stderr.on("data", (chunk) => (output += chunk));
      for (let i = 0; i < 300 && !output.includes("taking jobs"); i++) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(output).toContain("[worker] taking jobs");

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

      const exited = new Promise<number | null>((resolve) => started.once("exit", resolve));
      started.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(output).toContain("[worker] SIGTERM: finishing current jobs");
    });
  });
});

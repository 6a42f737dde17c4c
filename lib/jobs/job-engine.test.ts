import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { auditLog } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { startJobEngine } from "./job-engine";
import { pruneAuditLogJob } from "./prune-audit-log";

const testDb = await useTestDatabase();
const engine = await startJobEngine({ databaseUrl: testDb.url, work: true, log: () => {} });
afterAll(() => engine.stop());

async function waitForJob(name: string, id: string) {
  for (let i = 0; i < 150; i++) {
    const job = await engine.boss.getJobById(name, id);
    if (job && (job.state === "completed" || job.state === "failed")) return job;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("job did not finish");
}

describe("job engine", () => {
  it("runs the audit-log pruning job through pg-boss: old entries go, recent ones stay", async () => {
    const day = 24 * 60 * 60 * 1000;
    await testDb.db.insert(auditLog).values([
      { action: "auth.sign_in", actorEmail: "old@example.test", at: new Date(Date.now() - 30 * day) },
      { action: "auth.sign_in", actorEmail: "recent@example.test", at: new Date(Date.now() - 1 * day) },
    ]);

    const jobId = await pruneAuditLogJob.send(engine.boss, { olderThanDays: 7 });
    const job = await waitForJob(pruneAuditLogJob.name, jobId!);

    expect(job.state).toBe("completed");
    const left = await testDb.db.select({ email: auditLog.actorEmail }).from(auditLog);
    expect(left.map((row) => row.email)).toEqual(["recent@example.test"]);
  });

  it("registers the daily pruning schedules", async () => {
    const rows = await testDb.db.execute<{ name: string; cron: string }>(sql`select name, cron from pgboss.schedule`);
    expect(rows.map((row) => [row.name, row.cron])).toEqual(
      expect.arrayContaining([
        ["audit-log.prune", "17 3 * * *"],
        ["sandbox.prune-request-log", "37 3 * * *"],
        ["sync-history.prune", "27 3 * * *"],
      ]),
    );
  });
});

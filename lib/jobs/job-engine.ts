import { PgBoss } from "pg-boss";
import { allJobs } from "./all-jobs";
import type { AnyJob } from "./define-job";
import { describeErrorForLog } from "@/lib/logging/safe-error";

export interface JobEngine {
  boss: PgBoss;
  stop: () => Promise<void>;
}

/**
 * pg-boss on the app's own PostgreSQL (schema "pgboss"). Queues and schedules are
 * created by every process (idempotent); only processes with `work` take jobs.
 */
export async function startJobEngine(options: {
  databaseUrl: string;
  work: boolean;
  jobs?: AnyJob[];
  log?: (line: string) => void;
}): Promise<JobEngine> {
  const jobs = options.jobs ?? allJobs;
  const log = options.log ?? ((line) => console.log(line));
  const boss = new PgBoss({ connectionString: options.databaseUrl, schema: "pgboss", max: 4 });
  boss.on("error", (error) => log(`[jobs] ${describeErrorForLog(error, { frames: false })}`));
  await boss.start();
  for (const job of jobs) {
    await boss.createQueue(job.name, { ...job.queue });
    if (job.schedule) await boss.schedule(job.name, job.schedule.cron, {}, { tz: job.schedule.tz ?? "UTC" });
    if (options.work) {
      await boss.work(job.name, { localConcurrency: 1, ...job.work?.() }, async (batch) => {
        for (const item of batch) {
          const parsed = job.payload.safeParse(item.data);
          // A malformed payload would fail the same way on every retry: log and drop it.
          if (!parsed.success) {
            log(`[jobs] ${job.name} ${item.id}: invalid payload, dropped`);
            continue;
          }
          await job.handle(parsed.data, { jobId: item.id });
        }
      });
    }
  }
  return { boss, stop: () => boss.stop({ graceful: true, timeout: 10_000 }) };
}

import { PgBoss } from "pg-boss";
import type { z } from "zod";
import type { DatabaseOrTransaction, DatabaseTransaction } from "@/db/client";
import { asJobQueueDatabase } from "@/db/raw-sql";
import { getConfig } from "@/lib/config/config";
import type { JobDefinition } from "./define-job";
import { describeErrorForLog } from "@/lib/logging/safe-error";

const globalForJobs = globalThis as unknown as { locationSyncJobSender?: Promise<PgBoss> };

/**
 * A pg-boss handle that only sends (no workers, no maintenance), for web requests
 * and the CLI. Any process may send; workers anywhere pick the job up.
 */
function jobSender(): Promise<PgBoss> {
  globalForJobs.locationSyncJobSender ??= (async () => {
    const url = getConfig().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set");
    const boss = new PgBoss({ connectionString: url, schema: "pgboss", max: 2, supervise: false, schedule: false });
    boss.on("error", (error) => console.error(`[jobs] ${describeErrorForLog(error, { frames: false })}`));
    await boss.start();
    return boss;
  })();
  return globalForJobs.locationSyncJobSender;
}

/**
 * `singletonKey`: with a queue policy other than "standard", the policy's limit applies per key. `in`: the transaction
 * that creates what the job works on; the job is queued if, and only if, it commits.
 */
export async function sendJob<S extends z.ZodType>(
  job: Pick<JobDefinition<S>, "name" | "payload" | "queue">,
  payload: z.infer<S>,
  options: { singletonKey?: string; in?: DatabaseOrTransaction } = {},
): Promise<void> {
  const boss = await jobSender();
  await boss.createQueue(job.name, { ...job.queue });
  const { in: transaction, ...sendOptions } = options;
  await boss.send(
    job.name,
    job.payload.parse(payload) as object,
    transaction ? { ...sendOptions, db: asJobQueueDatabase(transaction) } : sendOptions,
  );
}

/**
 * Queues a job inside `tx`, under a savepoint: a queue that refuses it is logged (as `what`) and `tx` goes on without
 * it, for jobs whose work must not undo what `tx` records.
 */
export async function sendJobWithin<S extends z.ZodType>(
  tx: DatabaseTransaction,
  job: Pick<JobDefinition<S>, "name" | "payload" | "queue">,
  payload: z.infer<S>,
  options: { singletonKey?: string; what: string },
): Promise<void> {
  const { what, ...sendOptions } = options;
  try {
    await tx.transaction((savepoint) => sendJob(job, payload, { ...sendOptions, in: savepoint }));
  } catch (error) {
    console.error(`[jobs] could not queue ${what}: ${describeErrorForLog(error)}`);
  }
}

/** Starts the sender before its first job is sent, as a worker that has run a session has it. */
export async function startJobSender(): Promise<void> {
  await jobSender();
}

export async function stopJobSender(): Promise<void> {
  const sender = globalForJobs.locationSyncJobSender;
  globalForJobs.locationSyncJobSender = undefined;
  if (sender) await (await sender).stop({ graceful: false });
}

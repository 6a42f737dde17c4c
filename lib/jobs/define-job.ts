import type { PgBoss } from "pg-boss";
import type { z } from "zod";

export interface JobDefinition<S extends z.ZodType> {
  name: string;
  payload: S;
  queue?: { retryLimit?: number; retryBackoff?: boolean; expireInSeconds?: number; policy?: "standard" | "short" | "singleton" | "stately" };
  /** Daily or periodic runs: a cron expression evaluated in `tz`. */
  schedule?: { cron: string; tz?: string };
  /** How a process takes this queue's jobs (default: one at a time, polled every 2 s), read when the worker starts. */
  work?: () => { localConcurrency?: number; pollingIntervalSeconds?: number };
  handle: (payload: z.infer<S>, context: { jobId: string }) => Promise<void>;
}

/** A job is defined once (name, payload schema, handler); it is enqueued only through its typed `send`. */
export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>) {
  return {
    ...definition,
    send: (boss: PgBoss, payload: z.infer<S>) => boss.send(definition.name, definition.payload.parse(payload) as object),
  };
}

export type AnyJob = ReturnType<typeof defineJob<z.ZodType>>;

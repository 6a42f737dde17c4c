import { sql } from "drizzle-orm";
import type { OperationContext } from "@/lib/operations/context";
import { sendJob } from "@/lib/jobs/job-sender";
import { syncSessionJob } from "./sync-session-job";

/**
 * Sends the job again for every session a worker abandoned: one running whose lease expired (the worker was killed or
 * hung; its pg-boss job may stay "active" for hours), and one queued for over 2 minutes whose job no longer waits in
 * pg-boss (a worker took it and died before claiming the session). A session and its first job are queued in one
 * transaction (lib/sync/request-session.ts), so no session starts out without a job. A duplicate job is harmless:
 * the claim lets only one worker run a session.
 */
export async function recoverAbandonedSessions(ctx: OperationContext): Promise<string[]> {
  const { db } = ctx;
  const rows = await db.execute<{ id: string }>(sql`
    select s.id from sync_sessions s
    where ((s.status = 'running' and s.lease_expires_at < now()) or (s.status = 'queued' and s.created_at < now() - interval '2 minutes'))
      -- A job already waiting for the session is enough: one a minute would pile up behind a busy worker.
      and not exists (
        select 1 from pgboss.job j
        where j.name = ${syncSessionJob.name} and j.data ->> 'sessionId' = s.id::text and j.state in ('created', 'retry'))`);
  const ids = [...rows].map((row) => row.id);
  for (const sessionId of ids) await sendJob(syncSessionJob, { sessionId });
  return ids;
}

import { and, eq, lt, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { syncSessions } from "@/db/schema";
import { sendJob } from "@/lib/jobs/job-sender";
import { syncSessionJob } from "./sync-session-job";

/** A queued session whose job no worker has taken for this long probably lost its job. */
const QUEUED_TOO_LONG = sql`now() - interval '2 minutes'`;

/**
 * Sends the job again for every session a worker abandoned (killed or hung: its lease
 * expired while running) or that waited too long in the queue. A duplicate job is
 * harmless: the claim lets only one worker run a session.
 */
export async function recoverAbandonedSessions(db: Database): Promise<string[]> {
  const rows = await db
    .select({ id: syncSessions.id })
    .from(syncSessions)
    .where(
      or(
        and(eq(syncSessions.status, "running"), lt(syncSessions.leaseExpiresAt, sql`now()`)),
        and(eq(syncSessions.status, "queued"), lt(syncSessions.createdAt, QUEUED_TOO_LONG)),
      ),
    );
  for (const row of rows) await sendJob(syncSessionJob, { sessionId: row.id });
  return rows.map((row) => row.id);
}

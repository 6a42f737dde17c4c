import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface PruneSyncHistoryInput {
  /** Attempts older than this keep their summary only. */
  attemptDetailsDays: number;
  /** Finished sessions older than this go, with their steps, items and attempts. */
  sessionDays: number;
  now?: Date;
  /** Rows per statement: each batch is its own short transaction, so a large backlog never holds long locks. */
  batchSize?: number;
}

export interface PruneSyncHistoryResult {
  attemptsReduced: number;
  sessionsDeleted: number;
}

/** Repeats `batch` (which returns how many rows it touched) until a batch touches fewer than `size`. */
async function inBatches(size: number, batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const touched = await batch();
    total += touched;
    if (touched < size) return total;
  }
}

/**
 * Sync history retention: HTTP attempts older than `attemptDetailsDays` lose their recorded exchange (headers and
 * bodies: the part that may hold customer data) and keep their summary — operation, method, path, status, duration,
 * error, record and byte counts; finished sessions older than `sessionDays` are deleted (their steps, items and
 * attempts cascade). Queued and running sessions are never touched, their attempts neither; nor is a session that left
 * the upstream session open, or one a session in flight resumes.
 */
export async function pruneSyncHistory(db: DatabaseOrTransaction, input: PruneSyncHistoryInput): Promise<PruneSyncHistoryResult> {
  const now = input.now ?? new Date();
  const size = input.batchSize ?? 1000;
  const detailsCutoff = new Date(now.getTime() - input.attemptDetailsDays * DAY_MS).toISOString();
  const sessionsCutoff = new Date(now.getTime() - input.sessionDays * DAY_MS).toISOString();

  // Sessions first: their attempts then need no reducing. Their attempts go first, `size` rows a statement (a first
  // sync of a big location has hundreds), then the sessions a tenth as many at a time (with their steps and items).
  // Kept however old: a session that holds the upstream session open (Resume and Close upstream session act on it, and
  // the upstream waits for its close), and one a session in flight resumes.
  const expired = sql`select id from sync_sessions where created_at < ${sessionsCutoff} and status not in ('queued', 'running')
    and not upstream_open
    and id not in (select resumes_session_id from sync_sessions where status in ('queued', 'running') and resumes_session_id is not null)`;
  await inBatches(size, async () => {
    const deleted = await queryRows<{ id: number }>(
      db,
      sql`delete from sync_attempts where id in (
            select a.id from sync_attempts a where a.session_id in (${expired}) limit ${size})
          returning id`,
    );
    return deleted.length;
  });
  const sessionsPerBatch = Math.max(1, Math.floor(size / 10));
  const sessionsDeleted = await inBatches(sessionsPerBatch, async () => {
    const deleted = await queryRows<{ id: string }>(
      db,
      sql`delete from sync_sessions where id in (${expired} order by created_at limit ${sessionsPerBatch}) returning id`,
    );
    return deleted.length;
  });

  // The condition is the partial index sync_attempts_details_kept_idx's: each batch reads only attempts still to reduce.
  const attemptsReduced = await inBatches(size, async () => {
    const reduced = await queryRows<{ id: number }>(
      db,
      sql`update sync_attempts set request_headers = null, request_body = null, response_headers = null, response_body = null
           where id in (
             select id from sync_attempts
              where started_at < ${detailsCutoff}
                and (request_headers is not null or request_body is not null or response_headers is not null or response_body is not null)
                and not exists (select 1 from sync_sessions session
                                 where session.id = sync_attempts.session_id and session.status in ('queued', 'running'))
              limit ${size})
          returning id`,
    );
    return reduced.length;
  });

  return { attemptsReduced, sessionsDeleted };
}

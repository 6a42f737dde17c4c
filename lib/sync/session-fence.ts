import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { sql } from "drizzle-orm";
import type { Database, DatabaseTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";

/** This worker's claim on the session was taken over: it must not send or write anything more. */
export class LeaseLostError extends Error {
  constructor() {
    super("Another worker took this session over (its lease expired); this worker stopped.");
    this.name = "LeaseLostError";
  }
}

/** Another worker holds an unexpired lease on the session: try again after it expires. */
export class LeaseHeldError extends Error {
  constructor(sessionId: string) {
    super(`Session ${sessionId} is held by another worker whose lease has not expired.`);
    this.name = "LeaseHeldError";
  }
}

export class SessionCancelledError extends Error {
  constructor() {
    super("The session was cancelled.");
    this.name = "SessionCancelledError";
  }
}

/** The session must stop here: it was cancelled, or another worker took it over. */
export const isSessionStop = (error: unknown) => error instanceof LeaseLostError || error instanceof SessionCancelledError;

export type FencedTransaction = DatabaseTransaction;

/**
 * What an operation of the session ended with: the session's stop when it must stop (a source read it cancelled fails
 * with the source's own error), else the error itself.
 */
export function stopOr(fence: SessionFence, error: unknown): unknown {
  return fence.stopped.aborted && isSessionStop(fence.stopped.reason) ? fence.stopped.reason : error;
}

/**
 * A worker's claim on one session: the fencing token it got when claiming. Every
 * write goes through `write`, which locks the session row and proceeds only while
 * the token is still ours; losing the claim aborts `signal` (the upstream client's).
 */
export class SessionFence {
  private readonly controller = new AbortController();
  private readonly stopController = new AbortController();
  private renewal: NodeJS.Timeout | undefined;
  private lost = false;

  constructor(
    private readonly db: Database,
    readonly sessionId: string,
    readonly token: number,
    readonly owner: string,
    private readonly leaseSeconds: number,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Aborted when the session must stop — cancelled (seen by the lease's renewal), or its claim lost — with that error
   * as the reason: the source's statements in flight are cancelled on the source (a blocked one would otherwise hold
   * the session until SOURCE_STATEMENT_TIMEOUT_SECONDS) and a backoff ends. Requests to the upstream are not aborted
   * by a cancel: the session stops between them, as `checkpoint` sees.
   */
  get stopped(): AbortSignal {
    return this.stopController.signal;
  }

  get isLost(): boolean {
    return this.lost;
  }

  private markLost(): never {
    this.lost = true;
    this.controller.abort(new LeaseLostError());
    this.stopController.abort(new LeaseLostError());
    throw new LeaseLostError();
  }

  /**
   * Runs `work` in a transaction that holds the session row, only while the token is ours. A share lock: a claim's
   * update of the token waits for every fenced write in flight, while this worker's own writes (an item being recorded
   * as the next one starts) do not wait for each other.
   */
  async write<T>(work: (tx: FencedTransaction) => Promise<T>): Promise<T> {
    if (this.lost) throw new LeaseLostError();
    const result = await this.db.transaction(async (tx) => {
      const [row] = await queryRows(tx, sql`select 1 from sync_sessions where id = ${this.sessionId} and fencing_token = ${this.token} for share`);
      if (!row) return { lost: true as const };
      return { lost: false as const, value: await work(tx) };
    });
    if (result.lost) this.markLost();
    return result.value as T;
  }

  /** Between requests: stop when the lease is gone or someone asked to cancel. */
  async checkpoint(): Promise<void> {
    if (this.lost) throw new LeaseLostError();
    const [row] = await queryRows<{ fencing_token: string; cancel_requested_at: string | null }>(
      this.db,
      sql`select fencing_token, cancel_requested_at from sync_sessions where id = ${this.sessionId}`,
    );
    if (!row || Number(row.fencing_token) !== this.token) this.markLost();
    if (row.cancel_requested_at) throw new SessionCancelledError();
  }

  async renew(): Promise<void> {
    if (this.lost) return;
    const rows = await queryRows<{ cancel_requested_at: string | null }>(
      this.db,
      sql`update sync_sessions set lease_expires_at = now() + ${this.leaseSeconds} * interval '1 second'
          where id = ${this.sessionId} and fencing_token = ${this.token} returning cancel_requested_at`,
    );
    if (rows.length === 0) {
      try {
        this.markLost();
      } catch {}
    } else if (rows[0]!.cancel_requested_at) this.stopController.abort(new SessionCancelledError());
  }

  startRenewal(): void {
    const every = Math.max(200, (this.leaseSeconds * 1000) / 3);
    this.renewal = setInterval(() => void this.renew().catch(() => {}), every);
    this.renewal.unref();
  }

  stopRenewal(): void {
    if (this.renewal) clearInterval(this.renewal);
    this.renewal = undefined;
  }
}

export function workerIdentity(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Claims a queued session, or a running one whose lease expired (its worker died or
 * hung): the fencing token goes up, so the previous holder's writes are refused.
 * Null when the session is finished; LeaseHeldError while another worker holds it.
 */
export async function claimSession(db: Database, sessionId: string, options: { owner?: string; leaseSeconds: number }): Promise<SessionFence | null> {
  const owner = options.owner ?? workerIdentity();
  const [claimed] = await queryRows<{ fencing_token: string }>(
    db,
    sql`update sync_sessions
    set fencing_token = fencing_token + 1, lease_owner = ${owner},
        lease_expires_at = now() + ${options.leaseSeconds} * interval '1 second',
        status = 'running', started_at = coalesce(started_at, now())
    where id = ${sessionId}
      and (status = 'queued' or (status = 'running' and (lease_expires_at is null or lease_expires_at < now())))
    returning fencing_token`,
  );
  if (claimed) return new SessionFence(db, sessionId, Number(claimed.fencing_token), owner, options.leaseSeconds);
  const [current] = await queryRows<{ status: string }>(db, sql`select status from sync_sessions where id = ${sessionId}`);
  if (current && (current.status === "queued" || current.status === "running")) throw new LeaseHeldError(sessionId);
  return null;
}

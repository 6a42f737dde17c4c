import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Database, DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { previewRuns } from "@/db/schema";
import { getConfig } from "@/lib/config/config";

// A preview run in flight is computed by one process, which holds a lease on it as a sync session's worker does
// (lib/sync/session-fence.ts): renewed from a timer while it computes, so a run blocked on a slow source read keeps
// it. A run whose lease expired lost its process (kill -9, an interrupted CLI, a session's worker gone): whoever finds
// it fails it (failStoppedPreviewRuns) and starts its own. Each claim raises the run's fencing token, and the run's
// writes commit only while the run is still running under its token: a run failed meanwhile writes nothing more.

export const stoppedRunMessage = "The process computing it stopped.";

/** A queued run without a lease waits for its job (lib/preview/compute-preview-job.ts): failed only when no worker took it in this long. */
const UNCLAIMED_AFTER = sql`interval '4 hours'`;

/** How long a claim lasts without renewal: SYNC_LEASE_SECONDS, as a session's. */
export const defaultPreviewLeaseSeconds = () => getConfig().SYNC_LEASE_SECONDS;

/** The lease a run inserted by the process about to compute it starts with (a session's own run, the CLI's). */
export const leaseFromNow = (seconds: number): SQL => sql`now() + ${seconds} * interval '1 second'`;

/** Another process failed the run (its lease had expired): this one stopped and wrote nothing more. */
export class PreviewRunLostError extends Error {
  constructor() {
    super("The preview run was failed by another process (its lease had expired); this one stopped.");
    this.name = "PreviewRunLostError";
  }
}

/**
 * Fails the location's runs in flight whose process stopped: a lease that expired, a running run without one (from
 * before leases), a queued one no worker took. Returns how many.
 */
export async function failStoppedPreviewRuns(db: DatabaseOrTransaction, locationId: string): Promise<number> {
  const failed = await queryRows(
    db,
    sql`update preview_runs set status = 'failed', error = ${stoppedRunMessage}, finished_at = now()
        where location_id = ${locationId} and status in ('queued', 'running')
          and (lease_expires_at < now()
               or (status = 'running' and lease_expires_at is null)
               or (status = 'queued' and lease_expires_at is null and created_at < now() - ${UNCLAIMED_AFTER}))
        returning id`,
  );
  return failed.length;
}

/**
 * Claims a run to compute it: a queued one, or a running one whose lease expired and nobody failed yet (a job retried
 * after its worker died; it starts over, in no epoch of the preview's tables yet). Null when the run is finished or
 * another process holds it.
 */
export async function claimPreviewRun(db: Database, runId: string, leaseSeconds: number): Promise<PreviewRunLease | null> {
  const [claimed] = await queryRows<{ fencing_token: number }>(
    db,
    sql`update preview_runs set status = 'running', fencing_token = fencing_token + 1, lease_expires_at = ${leaseFromNow(leaseSeconds)},
          store_epoch = null
        where id = ${runId}
          and (status = 'queued' or (status = 'running' and (lease_expires_at is null or lease_expires_at < now())))
        returning fencing_token`,
  );
  return claimed ? new PreviewRunLease(db, runId, Number(claimed.fencing_token), leaseSeconds) : null;
}

export class PreviewRunLease {
  private renewal: NodeJS.Timeout | undefined;
  private lost = false;

  constructor(
    private readonly db: Database,
    readonly runId: string,
    readonly token: number,
    private readonly leaseSeconds: number,
  ) {}

  /** The run's row while it is still this process's to compute: the condition of every update of it. */
  get owned(): SQL {
    return and(eq(previewRuns.id, this.runId), eq(previewRuns.status, "running"), eq(previewRuns.fencingToken, this.token))!;
  }

  get isLost(): boolean {
    return this.lost;
  }

  /** Between batches: stops a run whose lease another process found expired. */
  checkpoint(): void {
    if (this.lost) throw new PreviewRunLostError();
  }

  /**
   * Last in each of the run's transactions that write the location's records: renews the lease and holds the run's row
   * until the commit, so a process failing the run either waits and then finds the lease renewed, or failed it first
   * and this transaction rolls back.
   */
  async assertOwned(tx: DatabaseOrTransaction): Promise<void> {
    if (!(await this.extend(tx))) {
      this.lost = true;
      throw new PreviewRunLostError();
    }
  }

  private async extend(db: DatabaseOrTransaction): Promise<boolean> {
    const rows = await queryRows(
      db,
      sql`update preview_runs set lease_expires_at = ${leaseFromNow(this.leaseSeconds)}
          where id = ${this.runId} and status = 'running' and fencing_token = ${this.token} returning 1`,
    );
    return rows.length > 0;
  }

  /** From a timer, not between batches only: a batch may wait on the source up to SOURCE_STATEMENT_TIMEOUT_SECONDS. */
  startRenewal(): void {
    const every = Math.max(200, (this.leaseSeconds * 1000) / 3);
    this.renewal = setInterval(() => {
      if (this.lost) return;
      void this.extend(this.db)
        .then((kept) => {
          if (!kept) this.lost = true;
        })
        .catch(() => {});
    }, every);
    this.renewal.unref();
  }

  stopRenewal(): void {
    if (this.renewal) clearInterval(this.renewal);
    this.renewal = undefined;
  }
}

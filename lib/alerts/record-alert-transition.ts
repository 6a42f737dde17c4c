import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";

export interface SessionEnd {
  locationId: string;
  sessionId: string;
  /** Final outcomes only: a retried attempt never gets here. */
  outcome: "failed" | "succeeded";
  reason?: string | null;
}

/**
 * Called in the transaction that writes a session's final outcome. Records an alert only on
 * a change of the location's status: the first failure after success (or ever), and the first
 * success after a failure. The per-location state row makes it once across processes.
 * Returns the id of the alert to deliver, or null.
 */
export async function recordAlertTransition(tx: DatabaseOrTransaction, end: SessionEnd): Promise<string | null> {
  const changed =
    end.outcome === "failed"
      ? await tx.execute(sql`
          insert into location_alert_states (location_id, notified_status, session_id, changed_at)
          values (${end.locationId}, 'failed', ${end.sessionId}, now())
          on conflict (location_id) do update set notified_status = 'failed', session_id = excluded.session_id, changed_at = now()
          where location_alert_states.notified_status <> 'failed'
          returning location_id`)
      : await tx.execute(sql`
          update location_alert_states set notified_status = 'recovered', session_id = ${end.sessionId}, changed_at = now()
          where location_id = ${end.locationId} and notified_status = 'failed'
          returning location_id`);
  if (changed.length === 0) return null;
  const kind = end.outcome === "failed" ? "failed" : "recovered";
  const [event] = await queryRows<{ id: string }>(
    tx,
    sql`
    insert into alert_events (location_id, session_id, kind, reason)
    values (${end.locationId}, ${end.sessionId}, ${kind}, ${end.reason ?? null})
    returning id`,
  );
  return event!.id;
}

import { sql } from "drizzle-orm";
import { queryRows } from "@/db/raw-sql";
import { sendJob } from "@/lib/jobs/job-sender";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import { deliverAlertJob } from "./deliver-alert-job";

/** An alert whose delivery job ran out of retries (about 17 minutes of a channel down) is sent again from this age… */
const RESEND_AFTER_MS = 30 * 60 * 1000;
/** …until this age: a day-old "failed" tells nothing the location page does not. */
const RESEND_UNTIL_MS = 24 * 60 * 60 * 1000;

/**
 * Queues the delivery of every recorded alert not yet delivered whose job no longer waits: one that ran out of retries
 * while a channel was down, or that the queue refused when it was recorded. Without it the alert was lost for good, and
 * later failures of the location send nothing until it recovers (only changes of status alert). The channels that
 * already received it are skipped (deliverAlert). Returns the events queued.
 */
export async function resendUndeliveredAlerts(ctx: OperationContext): Promise<string[]> {
  const now = nowOf(ctx).getTime();
  const rows = await queryRows<{ id: string }>(
    ctx.db,
    sql`select e.id from alert_events e
        where e.delivered_at is null
          and e.created_at < ${new Date(now - RESEND_AFTER_MS).toISOString()}::timestamptz
          and e.created_at > ${new Date(now - RESEND_UNTIL_MS).toISOString()}::timestamptz
          and not exists (
            select 1 from pgboss.job j
            where j.name = ${deliverAlertJob.name} and j.data ->> 'eventId' = e.id::text and j.state in ('created', 'retry', 'active'))`,
  );
  for (const { id } of rows) await sendJob(deliverAlertJob, { eventId: id });
  return rows.map((row) => row.id);
}

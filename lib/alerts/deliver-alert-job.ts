import { z } from "zod";
import { getDatabase, type DatabaseTransaction } from "@/db/client";
import { systemContext } from "@/lib/operations/context";
import { defineJob } from "@/lib/jobs/define-job";
import { sendJobWithin } from "@/lib/jobs/job-sender";
import { deliverAlert } from "./deliver-alert";

/** alerts.deliver: one recorded status change, to the webhook and email; retried with backoff. */
export const deliverAlertJob = defineJob({
  name: "alerts.deliver",
  payload: z.object({ eventId: z.uuid() }),
  queue: { retryLimit: 10, retryBackoff: true, expireInSeconds: 120 },
  handle: async ({ eventId }) => deliverAlert(systemContext(getDatabase()), { eventId }),
});

/**
 * In the transaction that records the outcome and its event: delivered if, and only if, it commits. The session's
 * outcome stands even when the queue refuses the job (logged; the event stays in alert_events with delivered_at null).
 */
export async function enqueueAlertDelivery(tx: DatabaseTransaction, eventId: string | null): Promise<void> {
  if (eventId) await sendJobWithin(tx, deliverAlertJob, { eventId }, { what: `alert ${eventId}` });
}

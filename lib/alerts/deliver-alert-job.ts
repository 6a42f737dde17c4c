import { z } from "zod";
import { getDatabase } from "@/db/client";
import { systemContext } from "@/lib/operations/context";
import { defineJob } from "@/lib/jobs/define-job";
import { sendJob } from "@/lib/jobs/job-sender";
import { deliverAlert } from "./deliver-alert";
import { describeErrorForLog } from "@/lib/logging/safe-error";

/** alerts.deliver: one recorded status change, to the webhook and email; retried with backoff. */
export const deliverAlertJob = defineJob({
  name: "alerts.deliver",
  payload: z.object({ eventId: z.uuid() }),
  queue: { retryLimit: 10, retryBackoff: true, expireInSeconds: 120 },
  handle: async ({ eventId }) => deliverAlert(systemContext(getDatabase()), { eventId }),
});

/**
 * After the outcome's transaction committed. The session's outcome must stand even when the
 * queue cannot be reached, so this logs instead of throwing; the event stays in alert_events
 * with delivered_at null.
 */
export async function enqueueAlertDelivery(eventId: string | null): Promise<void> {
  if (!eventId) return;
  try {
    await sendJob(deliverAlertJob, { eventId });
  } catch (error) {
    console.error(`[alerts] could not queue alert ${eventId}: ${describeErrorForLog(error)}`);
  }
}

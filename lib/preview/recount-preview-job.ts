import { systemContext } from "@/lib/operations/context";
import { z } from "zod";
import { getDatabase, type DatabaseTransaction } from "@/db/client";
import { defineJob } from "@/lib/jobs/define-job";
import { sendJob, sendJobWithin } from "@/lib/jobs/job-sender";
import { recountPreview } from "./recount-preview";
import { describeErrorForLog } from "@/lib/logging/safe-error";

/** preview.count: a location's preview counted again. At most one waits per location (policy "short", keyed by location). */
export const recountPreviewJob = defineJob({
  name: "preview.count",
  payload: z.object({ locationId: z.uuid() }),
  queue: { retryLimit: 2, retryBackoff: true, expireInSeconds: 15 * 60, policy: "short" },
  // The preview page waits for these counts after a session: taken within 0.5 s, not pg-boss's 2 s.
  work: () => ({ pollingIntervalSeconds: 0.5 }),
  handle: async ({ locationId }) => recountPreview(systemContext(getDatabase()), { locationId }),
});

/** Counts are for display: a queue that cannot be reached is logged, and the preview page asks again. */
export async function requestPreviewRecount(locationId: string): Promise<void> {
  try {
    await sendJob(recountPreviewJob, { locationId }, { singletonKey: locationId });
  } catch (error) {
    console.error(`[preview] could not queue a recount of ${locationId}: ${describeErrorForLog(error)}`);
  }
}

/** In the transaction that ends a sync session: what it got accepted changes the preview's new and changed counts. */
export async function requestPreviewRecountWithin(tx: DatabaseTransaction, locationId: string): Promise<void> {
  await sendJobWithin(tx, recountPreviewJob, { locationId }, { singletonKey: locationId, what: `a recount of ${locationId}` });
}

import { systemContext } from "@/lib/operations/context";
import { z } from "zod";
import { getDatabase } from "@/db/client";
import { defineJob } from "@/lib/jobs/define-job";
import { startDueSyncs } from "./start-due-syncs";

/**
 * The daily syncs: every minute (UTC) one tick starts the sessions that are due. All state is
 * in the database (sessions per local day), so a restart or a missed minute only delays a
 * start until the next tick, and ticks from several processes never double-start.
 */
export const scheduleSyncsJob = defineJob({
  name: "sync.schedule",
  payload: z.object({}),
  // The next tick retries whatever failed, so the job itself is not retried.
  queue: { policy: "singleton", retryLimit: 0, expireInSeconds: 600 },
  schedule: { cron: "* * * * *", tz: "UTC" },
  handle: async () => {
    const { failed } = await startDueSyncs(systemContext(getDatabase()));
    if (failed.length > 0) {
      const ids = failed.map((failure) => failure.locationId).join(", ");
      throw new AggregateError(
        failed.map((failure) => failure.error),
        `sync.schedule: could not request the session of ${ids}`,
      );
    }
  },
});

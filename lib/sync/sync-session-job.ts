import { z } from "zod";
import { systemContext } from "@/lib/operations/context";
import { getDatabase } from "@/db/client";
import { defineJob } from "@/lib/jobs/define-job";
import { getConfig } from "@/lib/config/config";
import { runSession } from "./run-session";

export const syncSessionJob = defineJob({
  name: "sync.session",
  payload: z.object({ sessionId: z.uuid() }),
  // A killed worker's job comes back after expiry (or a retry) and takes the session over once its lease has expired.
  queue: { retryLimit: 5, retryBackoff: true, expireInSeconds: 4 * 60 * 60 },
  // Sessions of different locations at once; the database keeps one per location.
  concurrency: () => getConfig().SYNC_WORKER_CONCURRENCY,
  handle: async ({ sessionId }) => {
    await runSession(systemContext(getDatabase()), { sessionId });
  },
});

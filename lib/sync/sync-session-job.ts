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
  // Sessions of different locations at once (the database keeps one per location). Each slot asks for its next job
  // every half second: at a shared sync time a backlog waits on the poll, not on work (npm run bench:fleet).
  work: () => ({ localConcurrency: getConfig().SYNC_WORKER_CONCURRENCY, pollingIntervalSeconds: 0.5 }),
  handle: async ({ sessionId }) => {
    await runSession(systemContext(getDatabase()), { sessionId });
  },
});

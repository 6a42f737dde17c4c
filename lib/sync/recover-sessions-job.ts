import { systemContext } from "@/lib/operations/context";
import { z } from "zod";
import { getDatabase } from "@/db/client";
import { defineJob } from "@/lib/jobs/define-job";
import { recoverAbandonedSessions } from "./recover-sessions";

/** Every minute: a session whose worker died (kill -9, lost host) is handed to another worker once its lease expired. */
export const recoverSyncSessionsJob = defineJob({
  name: "sync.recover",
  payload: z.object({}),
  queue: { retryLimit: 0, expireInSeconds: 120, policy: "singleton" },
  schedule: { cron: "* * * * *" },
  handle: async () => {
    await recoverAbandonedSessions(systemContext(getDatabase()));
  },
});

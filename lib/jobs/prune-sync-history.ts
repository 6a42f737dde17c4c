import { z } from "zod";
import { getDatabase } from "@/db/client";
import { pruneSyncHistory } from "@/lib/retention/prune-sync-history";
import { retentionPolicy } from "@/lib/retention/retention-policy";
import { defineJob } from "./define-job";

export const pruneSyncHistoryJob = defineJob({
  name: "sync-history.prune",
  payload: z.object({}),
  queue: { retryLimit: 3, retryBackoff: true, policy: "singleton" },
  schedule: { cron: "27 3 * * *", tz: "UTC" },
  handle: async () => {
    const { attemptDetailsDays, sessionDays } = retentionPolicy();
    await pruneSyncHistory(getDatabase(), { attemptDetailsDays, sessionDays });
  },
});

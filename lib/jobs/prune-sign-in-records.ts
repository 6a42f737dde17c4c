import { z } from "zod";
import { getDatabase } from "@/db/client";
import { pruneRevokedSessions } from "@/lib/auth/revoked-sessions";
import { pruneRateLimitBuckets } from "@/lib/rate-limit/rate-limit";
import { defineJob } from "./define-job";

export const pruneSignInRecordsJob = defineJob({
  name: "auth.prune-sign-in-records",
  payload: z.object({}),
  queue: { retryLimit: 3, retryBackoff: true, policy: "singleton" },
  schedule: { cron: "47 3 * * *", tz: "UTC" },
  handle: async () => {
    // Both tables hold rows about sign-ins that stop mattering once their window or session has ended.
    await pruneRevokedSessions(getDatabase());
    await pruneRateLimitBuckets(getDatabase());
  },
});

import { z } from "zod";
import { getDatabase } from "@/db/client";
import { pruneRevokedSessions } from "@/lib/auth/revoked-sessions";
import { defineJob } from "./define-job";

export const pruneRevokedSessionsJob = defineJob({
  name: "auth.prune-revoked-sessions",
  payload: z.object({}),
  queue: { retryLimit: 3, retryBackoff: true, policy: "singleton" },
  schedule: { cron: "47 3 * * *", tz: "UTC" },
  handle: async () => {
    await pruneRevokedSessions(getDatabase());
  },
});

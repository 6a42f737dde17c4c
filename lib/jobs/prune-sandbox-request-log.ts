import { z } from "zod";
import { getDatabase } from "@/db/client";
import { pruneSandboxRequestLog } from "@/lib/sandbox/request-log";
import { defineJob } from "./define-job";

export const pruneSandboxRequestLogJob = defineJob({
  name: "sandbox.prune-request-log",
  payload: z.object({ keepDays: z.number().int().positive().optional() }),
  queue: { retryLimit: 3, retryBackoff: true, policy: "singleton" },
  schedule: { cron: "37 3 * * *", tz: "UTC" },
  handle: async (payload) => {
    await pruneSandboxRequestLog(getDatabase(), { keepDays: payload.keepDays ?? 14 });
  },
});

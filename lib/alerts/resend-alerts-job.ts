import { z } from "zod";
import { getDatabase } from "@/db/client";
import { defineJob } from "@/lib/jobs/define-job";
import { systemContext } from "@/lib/operations/context";
import { resendUndeliveredAlerts } from "./resend-undelivered-alerts";

/** Every 15 minutes: alerts whose delivery ran out of retries are sent again (lib/alerts/resend-undelivered-alerts.ts). */
export const resendAlertsJob = defineJob({
  name: "alerts.resend",
  payload: z.object({}),
  queue: { retryLimit: 0, expireInSeconds: 120, policy: "singleton" },
  schedule: { cron: "*/15 * * * *" },
  handle: async () => {
    await resendUndeliveredAlerts(systemContext(getDatabase()));
  },
});

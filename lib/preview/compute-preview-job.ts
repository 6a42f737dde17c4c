import { systemContext } from "@/lib/operations/context";
import { z } from "zod";
import { getDatabase } from "@/db/client";
import { defineJob } from "@/lib/jobs/define-job";
import { computePreview } from "./compute-preview";

export const computePreviewJob = defineJob({
  name: "preview.compute",
  payload: z.object({ runId: z.uuid() }),
  // A crashed worker's job comes back after expiry and starts the run over.
  queue: { retryLimit: 2, retryBackoff: true, expireInSeconds: 60 * 60 },
  // Someone waits on the preview page for it: taken within 0.5 s, not pg-boss's 2 s.
  work: () => ({ pollingIntervalSeconds: 0.5 }),
  handle: async ({ runId }) => computePreview(systemContext(getDatabase()), { runId }),
});

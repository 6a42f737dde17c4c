import { lt } from "drizzle-orm";
import { z } from "zod";
import { getDatabase } from "@/db/client";
import { auditLog } from "@/db/schema";
import { getConfig } from "@/lib/config/config";
import { defineJob } from "./define-job";

export async function pruneAuditLog(olderThanDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - olderThanDays * 24 * 60 * 60 * 1000);
  const deleted = await getDatabase().delete(auditLog).where(lt(auditLog.at, cutoff)).returning({ id: auditLog.id });
  return deleted.length;
}

export const pruneAuditLogJob = defineJob({
  name: "audit-log.prune",
  payload: z.object({ olderThanDays: z.number().int().positive().optional() }),
  queue: { retryLimit: 3, retryBackoff: true, policy: "singleton" },
  schedule: { cron: "17 3 * * *", tz: "UTC" },
  handle: async (payload) => {
    await pruneAuditLog(payload.olderThanDays ?? getConfig().AUDIT_RETENTION_DAYS);
  },
});

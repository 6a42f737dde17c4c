import { getConfig } from "@/lib/config/config";

/** How long each kind of history is kept, in days (the settings page says it; the daily prune jobs apply it). */
export function retentionPolicy() {
  const config = getConfig();
  return {
    attemptDetailsDays: config.ATTEMPT_DETAILS_RETENTION_DAYS,
    sessionDays: config.SESSION_RETENTION_DAYS,
    auditLogDays: config.AUDIT_RETENTION_DAYS,
  };
}

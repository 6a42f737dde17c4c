import type { AnyJob } from "./define-job";
import { pruneAuditLogJob } from "./prune-audit-log";
import { pruneSignInRecordsJob } from "./prune-sign-in-records";
import { pruneSandboxRequestLogJob } from "./prune-sandbox-request-log";
import { pruneSyncHistoryJob } from "./prune-sync-history";
import { deliverAlertJob } from "@/lib/alerts/deliver-alert-job";
import { resendAlertsJob } from "@/lib/alerts/resend-alerts-job";
import { computePreviewJob } from "@/lib/preview/compute-preview-job";
import { recountPreviewJob } from "@/lib/preview/recount-preview-job";
import { recoverSyncSessionsJob } from "@/lib/sync/recover-sessions-job";
import { syncSessionJob } from "@/lib/sync/sync-session-job";
import { scheduleSyncsJob } from "@/lib/sync/schedule/schedule-job";

export const allJobs = [
  pruneAuditLogJob,
  pruneSandboxRequestLogJob,
  pruneSignInRecordsJob,
  pruneSyncHistoryJob,
  computePreviewJob,
  recountPreviewJob,
  syncSessionJob,
  scheduleSyncsJob,
  recoverSyncSessionsJob,
  deliverAlertJob,
  resendAlertsJob,
] as unknown as AnyJob[];

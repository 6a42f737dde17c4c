import type { AnyJob } from "./define-job";
import { pruneAuditLogJob } from "./prune-audit-log";
import { pruneSandboxRequestLogJob } from "./prune-sandbox-request-log";
import { computePreviewJob } from "@/lib/preview/compute-preview-job";

export const allJobs = [pruneAuditLogJob, pruneSandboxRequestLogJob, computePreviewJob] as unknown as AnyJob[];

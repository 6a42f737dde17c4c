import type { AnyJob } from "./define-job";
import { pruneAuditLogJob } from "./prune-audit-log";
import { pruneSandboxRequestLogJob } from "./prune-sandbox-request-log";

export const allJobs = [pruneAuditLogJob, pruneSandboxRequestLogJob] as unknown as AnyJob[];

import type { AnyJob } from "./define-job";
import { pruneAuditLogJob } from "./prune-audit-log";

export const allJobs: AnyJob[] = [pruneAuditLogJob as unknown as AnyJob];

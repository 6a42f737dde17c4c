import { pluralize } from "@/lib/format/plural";
import { DomainError } from "@/lib/errors/domain-error";
import { UpstreamError, UpstreamUploadAddressError } from "@/lib/upstream/errors";

/** A failure as the history and the location's attention reason show it (upstream messages are already redacted). */
export function describeSyncError(error: unknown): string {
  // A refused upload address says what happened and where to fix it; status and attempts add nothing.
  if (error instanceof UpstreamUploadAddressError) return error.message.slice(0, 2000);
  if (error instanceof UpstreamError) {
    const status = error.status ? ` (HTTP ${error.status})` : "";
    const attempts = error.attempts ? ` after ${pluralize(error.attempts, "attempt")}` : "";
    return `${error.message}${status}${attempts}`.slice(0, 2000);
  }
  if (error instanceof DomainError) return error.message;
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 2000);
  return String(error);
}

/** Worth another engine attempt: anything but a refusal that would be repeated (bad records, bad credentials, an upload address we refuse). */
export function isRetryableStepError(error: unknown): boolean {
  if (error instanceof UpstreamUploadAddressError) return false;
  if (error instanceof UpstreamError) return error.code !== "UPSTREAM_REJECTED" && error.code !== "UPSTREAM_AUTHENTICATION";
  return !(error instanceof DomainError);
}

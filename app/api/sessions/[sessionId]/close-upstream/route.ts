// POST /api/sessions/[sessionId]/close-upstream – tell the upstream the sync is finished (it then processes what it got and may send campaigns)
import { getDatabase } from "@/db/client";
import { DomainError } from "@/lib/errors/domain-error";
import { routeHandler } from "@/lib/http/route-handler";
import { closeUpstreamSession } from "@/lib/sync/close-upstream-session";
import { describeSyncError } from "@/lib/sync/describe-sync-error";
import { SessionId } from "@/lib/sync/session-inputs";
import { UpstreamError } from "@/lib/upstream/errors";

export const POST = routeHandler({ roles: ["admin", "support"], params: SessionId }, async ({ params }) => {
  try {
    await closeUpstreamSession(getDatabase(), params.sessionId);
  } catch (error) {
    // The attempt is in the session's history; the caller gets the upstream's (redacted) answer.
    if (error instanceof UpstreamError) throw new DomainError("UPSTREAM_UNAVAILABLE", `The upstream did not close the session: ${describeSyncError(error)}`);
    throw error;
  }
  return { closed: true };
});

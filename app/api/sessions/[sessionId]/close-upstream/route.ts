// POST /api/sessions/[sessionId]/close-upstream – tell the upstream the sync is finished (it then processes what it got and may send campaigns)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { closeUpstreamSession } from "@/lib/sync/close-upstream-session";
import { SessionId } from "@/lib/sync/session-inputs";

export const POST = routeHandler({ roles: ["admin", "support"], params: SessionId }, async ({ user, params, clientAddress }) => {
  await closeUpstreamSession(getDatabase(), { id: user.id, email: user.email, clientAddress }, params.sessionId);
  return { closed: true };
});

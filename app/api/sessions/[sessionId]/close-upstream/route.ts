// POST /api/sessions/[sessionId]/close-upstream – tell the upstream the sync is finished (it then processes what it got and may send campaigns)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { closeUpstreamSession } from "@/lib/sync/close-upstream-session";
import { SessionId } from "@/lib/sync/session-inputs";

export const POST = routeHandler({ action: "sync.close-upstream", params: SessionId }, async ({ actor, params }) => {
  await closeUpstreamSession({ db: getDatabase(), actor }, params);
  return { closed: true };
});

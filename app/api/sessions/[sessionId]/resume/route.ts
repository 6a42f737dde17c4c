// POST /api/sessions/[sessionId]/resume – a new session that continues a failed or cancelled one from its failed step
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { resumeSession } from "@/lib/sync/session-actions";
import { SessionId } from "@/lib/sync/session-inputs";

export const POST = routeHandler({ action: "sync.resume", params: SessionId }, async ({ actor, params }) => {
  const result = await resumeSession({ db: getDatabase(), actor }, params);
  return Response.json({ sessionId: result.sessionId }, { status: 202, headers: { "cache-control": "no-store" } });
});

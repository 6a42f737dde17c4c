// GET /api/sessions/[sessionId] – the whole session: steps, items and (staff only) every HTTP attempt
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { getSessionView } from "@/lib/sync/read-session-view";
import { SessionId } from "@/lib/sync/session-inputs";

export const GET = routeHandler({ action: "session.view", params: SessionId }, async ({ actor, params }) =>
  getSessionView({ db: getDatabase(), actor }, params),
);

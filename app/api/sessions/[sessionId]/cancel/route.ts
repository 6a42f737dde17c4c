// POST /api/sessions/[sessionId]/cancel – stop a session between requests (a queued one at once)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { cancelSession } from "@/lib/sync/session-actions";
import { SessionId } from "@/lib/sync/session-inputs";

export const POST = routeHandler({ action: "sync.cancel", params: SessionId }, async ({ actor, params }) =>
  cancelSession({ db: getDatabase(), actor }, params),
);

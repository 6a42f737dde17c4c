// POST /api/sessions/[sessionId]/confirm-removals – "Confirm and send" what the removal safety valve stopped, with a reason
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { confirmRemovals } from "@/lib/sync/confirm-removals";
import { ConfirmRemovalsInput, SessionId } from "@/lib/sync/session-inputs";

export const POST = routeHandler(
  { action: "sync.confirm-removals", params: SessionId, body: ConfirmRemovalsInput },
  async ({ actor, params, body }) => {
    const result = await confirmRemovals({ db: getDatabase(), actor }, { ...body, sessionId: params.sessionId });
    return Response.json(result, { status: 202, headers: { "cache-control": "no-store" } });
  },
);

// POST /api/sessions/[sessionId]/confirm-removals – "Confirm and send" what the removal safety valve stopped, with a reason
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { confirmRemovals } from "@/lib/sync/confirm-removals";
import { ConfirmRemovalsInput, SessionId } from "@/lib/sync/session-inputs";

export const POST = routeHandler({ roles: ["admin", "support"], params: SessionId, body: ConfirmRemovalsInput }, async ({ user, params, body, clientAddress }) => {
  const result = await confirmRemovals(getDatabase(), { id: user.id, email: user.email, clientAddress }, params.sessionId, body);
  return Response.json(result, { status: 202, headers: { "cache-control": "no-store" } });
});

// POST /api/sessions/[sessionId]/resume – a new session that continues a failed or cancelled one from its failed step
import { getDatabase } from "@/db/client";
import { DomainError } from "@/lib/errors/domain-error";
import { routeHandler } from "@/lib/http/route-handler";
import { resumeSession } from "@/lib/sync/session-actions";
import { SessionId } from "@/lib/sync/session-inputs";

export const POST = routeHandler({ action: "sync.resume", params: SessionId }, async ({ actor, params }) => {
  const result = await resumeSession(getDatabase(), actor, params.sessionId);
  if (!result.started) {
    throw new DomainError(
      "CONFLICT",
      result.sessionId
        ? `Session ${result.sessionId} is already open for this location.`
        : "Connect the location first: a sync uses its access token.",
    );
  }
  return Response.json({ sessionId: result.sessionId }, { status: 202, headers: { "cache-control": "no-store" } });
});

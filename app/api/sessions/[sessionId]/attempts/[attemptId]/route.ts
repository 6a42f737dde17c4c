// GET /api/sessions/[sessionId]/attempts/[attemptId] – one HTTP attempt's recorded request and response (staff only)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { getAttemptExchange } from "@/lib/sync/read-attempt-exchange";
import { SessionAttemptId } from "@/lib/sync/session-inputs";

export const GET = routeHandler({ action: "session.attempts.view", params: SessionAttemptId }, async ({ actor, params }) =>
  getAttemptExchange({ db: getDatabase(), actor }, params),
);

import { and, eq } from "drizzle-orm";
import { syncAttempts } from "@/db/schema";
import { assertCan, type Actor } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import { retentionPolicy } from "@/lib/retention/retention-policy";
import { selectVisibleSession } from "./read-session-view";
import type { AttemptExchangeView } from "./session-view";

/**
 * One attempt's recorded request and response (staff only), read when someone opens it: the session view lists the
 * attempts without them, so polling a running session stays small.
 */
export async function getAttemptExchange(
  ctx: OperationContext<Actor>,
  { sessionId, attemptId }: { sessionId: string; attemptId: number },
): Promise<AttemptExchangeView> {
  const { db, actor } = ctx;
  // The attempts are for staff, and the session must be one the viewer may see (same 404 otherwise).
  assertCan(actor, "session.attempts.view");
  const [session] = await selectVisibleSession(db, actor, sessionId);
  if (!session) throw new DomainError("NOT_FOUND", "Sync session not found.");
  const [row] = await db
    .select({
      id: syncAttempts.id,
      requestHeaders: syncAttempts.requestHeaders,
      requestBody: syncAttempts.requestBody,
      requestBodyBytes: syncAttempts.requestBodyBytes,
      responseHeaders: syncAttempts.responseHeaders,
      responseBody: syncAttempts.responseBody,
      responseBodyBytes: syncAttempts.responseBodyBytes,
      startedAt: syncAttempts.startedAt,
    })
    .from(syncAttempts)
    .where(and(eq(syncAttempts.sessionId, sessionId), eq(syncAttempts.id, attemptId)));
  if (!row) throw new DomainError("NOT_FOUND", "Attempt not found.");
  const { startedAt, ...exchange } = row;
  const { attemptDetailsDays } = retentionPolicy();
  const pastRetention = nowOf(ctx).getTime() - startedAt.getTime() > attemptDetailsDays * 24 * 60 * 60 * 1000;
  const recorded = exchange.requestHeaders !== null;
  return { ...exchange, recorded, detailsRemovedAfterDays: !recorded && pastRetention ? attemptDetailsDays : null };
}

import { and, asc, eq, getTableColumns, inArray } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locationMembers, syncAttempts, syncSessions, syncStepItems, syncSteps } from "@/db/schema";
import { can, locationScopeOf, type Actor } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import type { OperationContext } from "@/lib/operations/context";
import { serializeDates } from "./serialize-dates";
import { selectSessionRows, toSessionRow } from "./session-columns";
import type { SessionView } from "./session-view";

export type { AttemptView, SessionView, StepItemView, StepView } from "./session-view";

// The list of attempts leaves out the recorded request and response (read one at a time: read-attempt-exchange.ts).
const {
  requestHeaders: _requestHeaders,
  requestBody: _requestBody,
  requestBodyBytes: _requestBodyBytes,
  responseHeaders: _responseHeaders,
  responseBody: _responseBody,
  responseBodyBytes: _responseBodyBytes,
  ...attemptListColumns
} = getTableColumns(syncAttempts);

/**
 * The session as `viewer` may see it: owners only their own locations' sessions (another's answers like an unknown id).
 */
export function selectVisibleSession(db: DatabaseOrTransaction, viewer: Actor, sessionId: string) {
  const base = selectSessionRows(db);
  const scope = locationScopeOf(viewer, "session.view");
  const scoped =
    scope === "all"
      ? base
      : base.innerJoin(locationMembers, and(eq(locationMembers.locationId, syncSessions.locationId), eq(locationMembers.userId, scope.memberId)));
  return scoped.where(eq(syncSessions.id, sessionId));
}

/**
 * The whole session (SessionView, lib/sync/session-view.ts) as the API, the page, "Copy as JSON" and the CLI show it:
 * steps in protocol order, their items, and every HTTP attempt, under its step or item and all in order. Owners never
 * see the attempts.
 */
export async function getSessionView(ctx: OperationContext<Actor>, { sessionId }: { sessionId: string }): Promise<SessionView> {
  const { db, actor: viewer } = ctx;
  const [session] = await selectVisibleSession(db, viewer, sessionId);
  if (!session) throw new DomainError("NOT_FOUND", "Sync session not found.");

  const steps = await db.select().from(syncSteps).where(eq(syncSteps.sessionId, sessionId)).orderBy(asc(syncSteps.position));
  const items = steps.length
    ? await db
        .select()
        .from(syncStepItems)
        .where(
          inArray(
            syncStepItems.stepId,
            steps.map((step) => step.id),
          ),
        )
        .orderBy(asc(syncStepItems.position))
    : [];
  // The session is one the viewer may see (selectVisibleSession): the role decides about its attempts.
  const includesAttempts = can(viewer, "session.attempts.view");
  const attempts = includesAttempts
    ? await db.select(attemptListColumns).from(syncAttempts).where(eq(syncAttempts.sessionId, sessionId)).orderBy(asc(syncAttempts.id))
    : [];
  const attemptViews = attempts.map(({ sessionId: _sessionId, ...attempt }) => serializeDates(attempt));

  return {
    session: toSessionRow(session),
    steps: steps.map(({ sessionId: _sessionId, ...step }) => ({
      ...serializeDates(step),
      items: items
        .filter((item) => item.stepId === step.id)
        .map(({ stepId: _stepId, ...item }) => ({
          ...serializeDates(item),
          httpAttempts: attemptViews.filter((attempt) => attempt.itemId === item.id),
        })),
      httpAttempts: attemptViews.filter((attempt) => attempt.stepId === step.id && attempt.itemId === null),
    })),
    attempts: attemptViews,
    includesAttempts,
  };
}

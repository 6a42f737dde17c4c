import { and, asc, eq, inArray } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locationMembers, locations, syncAttempts, syncSessions, syncStepItems, syncSteps } from "@/db/schema";
import { can, locationScopeOf, type Actor } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { serializeDates, type Serialized } from "./serialize-dates";
import { sessionSummaryColumns } from "./session-columns";

/** Who is looking: the membership rule (lib/auth/permissions) decides which sessions they see. */
export type SessionViewer = Actor;

const sessionColumns = {
  ...sessionSummaryColumns,
  upstreamOpen: syncSessions.upstreamOpen,
  currentStep: syncSessions.currentStep,
  resumesSessionId: syncSessions.resumesSessionId,
  scheduledFor: syncSessions.scheduledFor,
  error: syncSessions.error,
  removalStop: syncSessions.removalStop,
  confirmedRemovals: syncSessions.confirmedRemovals,
  cancelRequestedAt: syncSessions.cancelRequestedAt,
  startedAt: syncSessions.startedAt,
  finishedAt: syncSessions.finishedAt,
  locationName: locations.name,
  locationTimeZone: locations.timeZone,
  locationAttentionReason: locations.attentionReason,
};

type AttemptRow = typeof syncAttempts.$inferSelect;
export type AttemptView = Serialized<Omit<AttemptRow, "sessionId">>;
export type StepItemView = Serialized<Omit<typeof syncStepItems.$inferSelect, "stepId">> & { httpAttempts: AttemptView[] };
export type StepView = Serialized<Omit<typeof syncSteps.$inferSelect, "sessionId">> & { items: StepItemView[]; httpAttempts: AttemptView[] };

export interface SessionView {
  session: Serialized<SessionRow>;
  steps: StepView[];
  /** HTTP attempts recorded outside any step (none in practice; kept so that nothing recorded is hidden). */
  otherAttempts: AttemptView[];
  /** False for owners: the HTTP attempts are for staff only ("session.attempts.view"). */
  includesAttempts: boolean;
}

/**
 * The whole session as its page and "Copy as JSON" show it: steps in protocol order, their items,
 * and every HTTP attempt under its step or item. Owners see only their own locations' sessions
 * (another's answers like an unknown id) and never the attempts.
 */
function selectVisibleSession(db: DatabaseOrTransaction, viewer: SessionViewer, sessionId: string) {
  const base = db.select(sessionColumns).from(syncSessions).innerJoin(locations, eq(locations.id, syncSessions.locationId));
  const scope = locationScopeOf(viewer, "session.view");
  const scoped =
    scope === "all"
      ? base
      : base.innerJoin(locationMembers, and(eq(locationMembers.locationId, syncSessions.locationId), eq(locationMembers.userId, scope.memberId)));
  return scoped.where(eq(syncSessions.id, sessionId));
}

type SessionRow = Awaited<ReturnType<typeof selectVisibleSession>>[number];

export async function getSessionView(db: DatabaseOrTransaction, viewer: SessionViewer, sessionId: string): Promise<SessionView> {
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
    ? await db.select().from(syncAttempts).where(eq(syncAttempts.sessionId, sessionId)).orderBy(asc(syncAttempts.id))
    : [];
  const attemptViews = attempts.map(({ sessionId: _sessionId, ...attempt }) => serializeDates(attempt));

  return {
    session: serializeDates(session),
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
    otherAttempts: attemptViews.filter((attempt) => attempt.stepId === null),
    includesAttempts,
  };
}

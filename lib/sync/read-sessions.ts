import { asc, desc, eq, inArray } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { syncAttempts, syncSessions, syncStepItems, syncSteps } from "@/db/schema";
import { DomainError } from "@/lib/errors/domain-error";

/** The latest sessions of a location, newest first. */
export async function listSessions(db: DatabaseOrTransaction, locationId: string, limit = 50) {
  return db.select().from(syncSessions).where(eq(syncSessions.locationId, locationId)).orderBy(desc(syncSessions.createdAt)).limit(limit);
}

/** One session with every step, item and HTTP attempt: what engineers read to see what was sent and why it failed. */
export async function getSessionDetail(db: DatabaseOrTransaction, sessionId: string) {
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
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
  const attempts = await db.select().from(syncAttempts).where(eq(syncAttempts.sessionId, sessionId)).orderBy(asc(syncAttempts.id));
  return {
    session,
    steps: steps.map((step) => ({
      ...step,
      items: items.filter((item) => item.stepId === step.id),
      attempts: attempts.filter((attempt) => attempt.stepId === step.id && attempt.itemId === null),
    })),
    attempts,
  };
}

export type SessionDetail = Awaited<ReturnType<typeof getSessionDetail>>;

import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { syncAttempts, syncSessions, syncStepItems, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { pruneSyncHistoryJob } from "@/lib/jobs/prune-sync-history";
import { getAttemptExchange } from "@/lib/sync/read-attempt-exchange";
import { sampleSourceRows } from "@/lib/sync/testing/sample-source";
import { createConnectedLocation, runManualTestSync, useSyncSandbox } from "@/lib/sync/testing/sync-test-setup";
import { pruneSyncHistory } from "./prune-sync-history";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);

const daysAgo = (days: number) => sql`now() - make_interval(days => ${days})`;

async function historyOf(sessionId: string) {
  const steps = await db.select({ id: syncSteps.id }).from(syncSteps).where(eq(syncSteps.sessionId, sessionId));
  const stepIds = steps.map((step) => step.id);
  const items = stepIds.length ? await db.select({ id: syncStepItems.id }).from(syncStepItems).where(inArray(syncStepItems.stepId, stepIds)) : [];
  const attempts = await db.select().from(syncAttempts).where(eq(syncAttempts.sessionId, sessionId)).orderBy(syncAttempts.id);
  const [session] = await db.select({ id: syncSessions.id }).from(syncSessions).where(eq(syncSessions.id, sessionId));
  return { session, stepIds, items, attempts };
}

describe("sync history retention", () => {
  it("reduces an attempt older than the details retention to its summary, and deletes an old session with its steps, items and attempts", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const old = await runManualTestSync(db, location.id, sampleSourceRows());
    const recent = await runManualTestSync(db, location.id, sampleSourceRows(), { now: new Date("2026-03-11T10:00:00Z") });

    const before = await historyOf(old.id);
    expect(before.stepIds.length).toBeGreaterThan(0);
    expect(before.items.length).toBeGreaterThan(0);
    expect(before.attempts.length).toBeGreaterThan(0);
    const recentAttempts = (await historyOf(recent.id)).attempts;
    const aged = recentAttempts.find((attempt) => attempt.requestHeaders !== null && attempt.responseBody !== null)!;
    const untouched = recentAttempts.filter((attempt) => attempt.id !== aged.id && attempt.requestHeaders !== null);
    expect(aged).toBeDefined();
    expect(untouched.length).toBeGreaterThan(0);

    // The old session is 401 days old, one attempt of the recent session 31 days: both past the defaults (400 and 30).
    await db.execute(
      sql`update sync_sessions set created_at = ${daysAgo(401)}, started_at = ${daysAgo(401)}, finished_at = ${daysAgo(401)} where id = ${old.id}`,
    );
    await db.execute(sql`update sync_attempts set started_at = ${daysAgo(31)} where id = ${aged.id}`);
    await pruneSyncHistoryJob.handle({}, { jobId: "test" });

    const gone = await historyOf(old.id);
    expect(gone.session).toBeUndefined();
    expect(gone.stepIds).toEqual([]);
    expect(
      await db
        .select()
        .from(syncStepItems)
        .where(
          inArray(
            syncStepItems.id,
            before.items.map((item) => item.id),
          ),
        ),
    ).toEqual([]);
    expect(
      await db
        .select()
        .from(syncAttempts)
        .where(
          inArray(
            syncAttempts.id,
            before.attempts.map((attempt) => attempt.id),
          ),
        ),
    ).toEqual([]);

    const kept = await historyOf(recent.id);
    expect(kept.session).toBeDefined();
    expect(kept.attempts.map((attempt) => attempt.id)).toEqual(recentAttempts.map((attempt) => attempt.id));
    const reduced = kept.attempts.find((attempt) => attempt.id === aged.id)!;
    // The summary stays: what was asked, how it went, how long it took and how big it was.
    const summary = (attempt: typeof aged) => ({
      ...attempt,
      requestHeaders: undefined,
      requestBody: undefined,
      responseHeaders: undefined,
      responseBody: undefined,
      startedAt: undefined,
    });
    expect(summary(reduced)).toEqual(summary(aged));
    expect(reduced.status).not.toBeNull();
    expect([reduced.requestHeaders, reduced.requestBody, reduced.responseHeaders, reduced.responseBody]).toEqual([null, null, null, null]);
    // The session page says why the exchange is gone; a recent attempt's is shown as recorded.
    const support = { id: randomUUID(), role: "support" } as const;
    expect(await getAttemptExchange({ db, actor: support }, { sessionId: recent.id, attemptId: aged.id })).toMatchObject({
      recorded: false,
      detailsRemovedAfterDays: 30,
      requestBody: null,
    });
    expect(await getAttemptExchange({ db, actor: support }, { sessionId: recent.id, attemptId: untouched[0]!.id })).toMatchObject({
      recorded: true,
      detailsRemovedAfterDays: null,
    });
    // Every other attempt keeps its exchange.
    for (const attempt of untouched) {
      const now = kept.attempts.find((candidate) => candidate.id === attempt.id)!;
      expect(now.requestHeaders, `attempt ${attempt.id}`).toEqual(attempt.requestHeaders);
      expect(now.responseBody, `attempt ${attempt.id}`).toEqual(attempt.responseBody);
    }
  });

  it("keeps every attempt detail of a session still running, however old the attempt", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const [running] = await db
      .insert(syncSessions)
      .values({ locationId: location.id, environment: "staging", trigger: "manual", optionalSteps: [], status: "running" })
      .returning();
    await db.insert(syncAttempts).values({
      sessionId: running!.id,
      operation: "open",
      attempt: 1,
      method: "PUT",
      path: "/sync",
      status: 200,
      durationMs: 5,
      startedAt: new Date(Date.now() - 3 * 24 * 60 * 60 * 1000),
      requestHeaders: { "content-type": "application/json" },
      responseBody: "{}",
    });
    await pruneSyncHistory(db, { attemptDetailsDays: 1, sessionDays: 400 });
    const [attempt] = await db.select().from(syncAttempts).where(eq(syncAttempts.sessionId, running!.id));
    expect(attempt).toMatchObject({ requestHeaders: { "content-type": "application/json" }, responseBody: "{}" });
    await db.update(syncSessions).set({ status: "failed" }).where(eq(syncSessions.id, running!.id));
  });

  it("works through a backlog in batches and never deletes a session in flight", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const finished = await runManualTestSync(db, location.id, sampleSourceRows());
    const [queued] = await db
      .insert(syncSessions)
      .values({ locationId: location.id, environment: "staging", trigger: "manual", optionalSteps: [] })
      .returning();
    await db.execute(sql`update sync_sessions set created_at = ${daysAgo(500)} where id in (${finished.id}, ${queued!.id})`);
    await db.execute(sql`update sync_attempts set started_at = ${daysAgo(60)} where session_id = ${finished.id}`);
    const withDetails = await db
      .select({ id: syncAttempts.id })
      .from(syncAttempts)
      .where(and(eq(syncAttempts.sessionId, finished.id), isNotNull(syncAttempts.requestHeaders)));
    expect(withDetails.length).toBeGreaterThan(2);

    // Details first (sessions kept), three attempts per statement.
    expect(await pruneSyncHistory(db, { attemptDetailsDays: 30, sessionDays: 1000, batchSize: 3 })).toEqual({
      attemptsReduced: withDetails.length,
      sessionsDeleted: 0,
    });
    expect(
      await db
        .select({ id: syncAttempts.id })
        .from(syncAttempts)
        .where(and(eq(syncAttempts.sessionId, finished.id), isNotNull(syncAttempts.requestHeaders))),
    ).toEqual([]);
    expect(await pruneSyncHistory(db, { attemptDetailsDays: 30, sessionDays: 400, batchSize: 1 })).toEqual({
      attemptsReduced: 0,
      sessionsDeleted: 1,
    });
    const left = await db.select({ id: syncSessions.id }).from(syncSessions).where(eq(syncSessions.locationId, location.id));
    expect(left).toEqual([{ id: queued!.id }]);
  });

  it("keeps, however old, a session that left the upstream session open, and one a session in flight resumes", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const finished = await runManualTestSync(db, location.id, sampleSourceRows());
    const insert = (values: Partial<typeof syncSessions.$inferInsert>) =>
      db
        .insert(syncSessions)
        .values({ locationId: location.id, environment: "staging", trigger: "manual", optionalSteps: [], status: "failed", ...values })
        .returning()
        .then(([row]) => row!);
    const leftOpen = await insert({ upstreamOpen: true });
    const resumed = await insert({});
    await db.update(syncSessions).set({ upstreamOpen: false }).where(eq(syncSessions.id, finished.id));
    await db.execute(sql`update sync_sessions set created_at = ${daysAgo(500)} where location_id = ${location.id}`);
    const resuming = await insert({ status: "queued", trigger: "resume", resumesSessionId: resumed.id });

    expect(await pruneSyncHistory(db, { attemptDetailsDays: 30, sessionDays: 400 })).toMatchObject({ sessionsDeleted: 1 });
    const left = await db.select({ id: syncSessions.id }).from(syncSessions).where(eq(syncSessions.locationId, location.id));
    expect(left.map((row) => row.id).sort()).toEqual([leftOpen.id, resumed.id, resuming.id].sort());
  });
});

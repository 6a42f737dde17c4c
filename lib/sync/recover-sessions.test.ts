import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { locations, syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { sealLocationToken } from "@/lib/locations/location-token";
import { systemContext } from "@/lib/operations/context";
import { recoverAbandonedSessions } from "./recover-sessions";
import { requestSyncSession } from "./request-session";

const testDb = await useTestDatabase();
const { db } = testDb;
afterAll(() => stopJobSender());

async function queuedSession() {
  const [row] = await db
    .insert(locations)
    .values({ name: `Salon ${Math.random()}`, upstreamLocationId: `up-${Math.random()}` })
    .returning();
  await db
    .update(locations)
    .set({ locationTokenEncrypted: sealLocationToken(row!.id, "token") })
    .where(eq(locations.id, row!.id));
  const result = await requestSyncSession(systemContext(db), { locationId: row!.id, trigger: "manual", requestedByEmail: null });
  return result.sessionId!;
}

/** The session runs, and its worker's lease ran out a second ago. */
const expireLease = (sessionId: string) =>
  db
    .update(syncSessions)
    .set({ status: "running", leaseExpiresAt: new Date(Date.now() - 1000) })
    .where(eq(syncSessions.id, sessionId));

const queuedMinutesAgo = (sessionId: string, minutes: number) =>
  db
    .update(syncSessions)
    .set({ createdAt: new Date(Date.now() - minutes * 60_000) })
    .where(eq(syncSessions.id, sessionId));

const jobsOf = async (sessionId: string) =>
  (await testDb.sql`select state from pgboss.job where name = 'sync.session' and data ->> 'sessionId' = ${sessionId}`).length;

describe("recoverAbandonedSessions", () => {
  it("re-sends the job of a running session whose lease expired, and of a queued one whose job is gone", async () => {
    const running = await queuedSession();
    await expireLease(running);
    // A worker took its job and died: the job stays active.
    await testDb.sql`update pgboss.job set state = 'active' where data ->> 'sessionId' = ${running}`;
    const waiting = await queuedSession();
    await queuedMinutesAgo(waiting, 5);
    const lost = await queuedSession();
    await queuedMinutesAgo(lost, 5);
    await testDb.sql`delete from pgboss.job where data ->> 'sessionId' = ${lost}`;
    const fresh = await queuedSession();

    expect((await recoverAbandonedSessions(systemContext(db))).sort()).toEqual([running, lost].sort());
    expect([await jobsOf(running), await jobsOf(waiting), await jobsOf(lost), await jobsOf(fresh)]).toEqual([2, 1, 1, 1]);
  });

  it("sends one job for an expired lease however many ticks pass while it waits", async () => {
    const running = await queuedSession();
    await expireLease(running);
    // Its first job was taken by the worker that died.
    await testDb.sql`delete from pgboss.job where data ->> 'sessionId' = ${running}`;
    for (let tick = 0; tick < 5; tick++) await recoverAbandonedSessions(systemContext(db));
    expect(await jobsOf(running)).toBe(1);
  });
});

import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { locations, syncSessions, users } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { archiveLocation } from "@/lib/locations/archive-location";
import { sealLocationToken } from "@/lib/locations/location-token";
import { systemContext } from "@/lib/operations/context";
import { requestSyncSession, sessionRequestMessage } from "./request-session";
import { resumeSession } from "./session-actions";
import { startManualSession } from "./start-manual-session";

const testDb = await useTestDatabase();
const { db } = testDb;
afterAll(() => stopJobSender());

async function connectedLocation() {
  const [row] = await db
    .insert(locations)
    .values({ name: `Salon ${Math.random()}`, upstreamLocationId: `up-${Math.random()}` })
    .returning();
  await db
    .update(locations)
    .set({ locationTokenEncrypted: sealLocationToken(row!.id, "token") })
    .where(eq(locations.id, row!.id));
  return row!;
}

/** The pg-boss jobs queued to run this session. */
async function jobsOf(sessionId: string) {
  return db.execute(sql`select state from pgboss.job where name = 'sync.session' and data ->> 'sessionId' = ${sessionId}`);
}

describe("requestSyncSession", () => {
  it("queues the session and its job in one transaction: both or neither", async () => {
    const location = await connectedLocation();
    const started = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(started.started).toBe(true);
    expect([...(await jobsOf(started.sessionId!))]).toEqual([{ state: "created" }]);

    // Asked inside a transaction that then rolls back: no session is left, and no job either.
    let undone: string | null = null;
    const rolledBack = new Error("rolled back on purpose");
    const other = await connectedLocation();
    await expect(
      db.transaction(async (tx) => {
        const result = await requestSyncSession(systemContext(tx), { locationId: other.id, trigger: "manual", requestedByEmail: null });
        undone = result.sessionId;
        expect([...(await tx.execute(sql`select 1 from pgboss.job where data ->> 'sessionId' = ${result.sessionId}`))]).toHaveLength(1);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(undone).not.toBeNull();
    expect(await db.select().from(syncSessions).where(eq(syncSessions.locationId, other.id))).toEqual([]);
    expect([...(await jobsOf(undone!))]).toEqual([]);
  });

  it("starts exactly one session for 50 concurrent requests of one location", async () => {
    const location = await connectedLocation();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: "support@example.test" }),
      ),
    );
    const started = results.filter((result) => result.started);
    expect(started).toHaveLength(1);
    const sessions = await db.select().from(syncSessions).where(eq(syncSessions.locationId, location.id));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ status: "queued", trigger: "manual", optionalSteps: ["calendars", "service_categories", "services"] });
    expect(results.every((result) => result.sessionId === sessions[0]!.id)).toBe(true);
    expect(new Set(results.filter((result) => !result.started).map((result) => !result.started && result.reason))).toEqual(new Set(["already_open"]));
  });

  it("starts one scheduled run per local date", async () => {
    const location = await connectedLocation();
    const first = await requestSyncSession(systemContext(db), {
      locationId: location.id,
      trigger: "schedule",
      requestedByEmail: null,
      scheduledFor: "2026-05-01",
    });
    expect(first.started).toBe(true);
    await db.update(syncSessions).set({ status: "succeeded" }).where(eq(syncSessions.id, first.sessionId!));
    const again = await requestSyncSession(systemContext(db), {
      locationId: location.id,
      trigger: "schedule",
      requestedByEmail: null,
      scheduledFor: "2026-05-01",
    });
    expect(again).toEqual({ started: false, reason: "already_scheduled", sessionId: first.sessionId });
    const nextDay = await requestSyncSession(systemContext(db), {
      locationId: location.id,
      trigger: "schedule",
      requestedByEmail: null,
      scheduledFor: "2026-05-02",
    });
    expect(nextDay.started).toBe(true);
  });

  it("keeps the chosen optional steps in protocol order", async () => {
    const location = await connectedLocation();
    const result = await requestSyncSession(systemContext(db), {
      locationId: location.id,
      trigger: "cli",
      requestedByEmail: null,
      optionalSteps: ["services", "calendars"],
      full: true,
    });
    const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, result.sessionId!));
    expect(session).toMatchObject({ optionalSteps: ["calendars", "services"], full: true, trigger: "cli" });
  });

  it("does not start a session for a location that is not connected", async () => {
    const [row] = await db.insert(locations).values({ name: "Unlinked" }).returning();
    expect(await requestSyncSession(systemContext(db), { locationId: row!.id, trigger: "manual", requestedByEmail: null })).toEqual({
      started: false,
      reason: "not_connected",
      sessionId: null,
    });
  });

  it("refuses in the same words wherever a session is asked for while one is open: Sync now, Resume", async () => {
    const location = await connectedLocation();
    const open = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual" });
    const [failed] = await db
      .insert(syncSessions)
      .values({ locationId: location.id, environment: "staging", trigger: "manual", optionalSteps: [], status: "failed" })
      .returning();
    const expected = { code: "CONFLICT", message: sessionRequestMessage({ started: false, reason: "already_open", sessionId: open.sessionId }) };
    expect(expected.message).toContain(open.sessionId!);
    await expect(startManualSession(systemContext(db), { locationId: location.id, full: false })).rejects.toMatchObject(expected);
    await expect(resumeSession(systemContext(db), { sessionId: failed!.id })).rejects.toMatchObject(expected);
  });

  it("never leaves a session queued at an archived location: 20 archives racing 20 requests", async () => {
    const [support] = await db
      .insert(users)
      .values({ email: `support-${Math.random()}@example.test`, role: "support" })
      .returning();
    const actor = { id: support!.id, email: support!.email, role: support!.role };
    const rounds = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const location = await connectedLocation();
        const [archive, request] = await Promise.allSettled([
          archiveLocation({ db, actor }, { locationId: location.id }),
          requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null }),
        ]);
        const [row] = await db.select().from(locations).where(eq(locations.id, location.id));
        const sessions = await db.select().from(syncSessions).where(eq(syncSessions.locationId, location.id));
        return { archive, request, archived: row!.archivedAt !== null, sessions: sessions.length };
      }),
    );
    for (const round of rounds) {
      // Either the session came first (the archive is refused while it is open) or the archive did (nothing queued).
      if (round.archived) {
        expect(round.sessions).toBe(0);
        expect(round.request).toMatchObject({ status: "fulfilled", value: { started: false, reason: "not_connected" } });
      } else {
        expect(round.archive).toMatchObject({ status: "rejected", reason: { code: "CONFLICT" } });
        expect(round.sessions).toBe(1);
      }
    }
  });
});

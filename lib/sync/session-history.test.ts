import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { locationMembers, locations, syncAttempts, syncSessions, syncStepItems, syncSteps, users } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemActorAs } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { sealLocationToken } from "@/lib/locations/location-token";
import { listSessionHistory } from "./read-session-history";
import { getSessionView } from "./read-session-view";
import { SessionHistoryQuery } from "./session-inputs";
import { SessionHistoryResponse } from "./session-responses";
import { SessionView } from "./session-view";
import { startManualSession } from "./start-manual-session";
import { isOutsideSyncWindow } from "./sync-window";

const testDb = await useTestDatabase();
const { db } = testDb;
afterAll(() => stopJobSender());

async function createLocation(connected = false) {
  const [row] = await db
    .insert(locations)
    .values({ name: `Salon ${Math.random()}`, upstreamLocationId: `up-${Math.random()}`, timeZone: "Europe/Berlin" })
    .returning();
  if (connected)
    await db
      .update(locations)
      .set({ locationTokenEncrypted: sealLocationToken(row!.id, "token") })
      .where(eq(locations.id, row!.id));
  return row!;
}

/** Sessions created in bulk, several sharing one created_at so the id must break the tie. */
async function seedSessions(locationId: string, count: number) {
  await db.execute(sql`
    insert into sync_sessions (location_id, environment, trigger, status, optional_steps, created_at)
    select ${locationId}::uuid, 'staging', (case when n % 3 = 0 then 'schedule' else 'manual' end)::sync_trigger,
           (case when n % 4 = 0 then 'failed' else 'succeeded' end)::sync_session_status, '{}',
           timestamptz '2026-01-01 00:00:00.123456+00' + ((n / 5) * interval '1 microsecond')
    from generate_series(1, ${count}) as n`);
}

const query = (input: Record<string, string | number>) => SessionHistoryQuery.parse(input);

describe("listSessionHistory", () => {
  it("pages through every session exactly once, older then back newer, with ties on created_at", async () => {
    const location = await createLocation();
    await seedSessions(location.id, 23);
    const seen: string[] = [];
    let page = await listSessionHistory({ db, actor: systemActor }, { ...query({ limit: 5 }), locationId: location.id });
    const pages = [page];
    seen.push(...page.items.map((item) => item.id));
    while (page.olderCursor) {
      page = await listSessionHistory({ db, actor: systemActor }, { ...query({ limit: 5, after: page.olderCursor }), locationId: location.id });
      pages.push(page);
      seen.push(...page.items.map((item) => item.id));
    }
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    const createdAts = pages.flatMap((each) => each.items.map((item) => item.createdAt));
    expect([...createdAts].sort().reverse()).toEqual(createdAts);
    expect(pages[0]!.newerCursor).toBeNull();

    const back = await listSessionHistory(
      { db, actor: systemActor },
      { ...query({ limit: 5, before: pages.at(-1)!.newerCursor! }), locationId: location.id },
    );
    expect(back.items.map((item) => item.id)).toEqual(pages.at(-2)!.items.map((item) => item.id));
    expect(back.olderCursor).not.toBeNull();
  });

  it("filters by status and trigger and lists each session's steps in order, with what each left out", async () => {
    const location = await createLocation();
    await seedSessions(location.id, 12);
    const failed = await listSessionHistory({ db, actor: systemActor }, { ...query({ status: "failed", trigger: "" }), locationId: location.id });
    expect(failed.items.map((item) => item.status)).toEqual(["failed", "failed", "failed"]);
    const scheduled = await listSessionHistory({ db, actor: systemActor }, { ...query({ trigger: "schedule" }), locationId: location.id });
    expect(scheduled.items).toHaveLength(4);
    const [newest] = scheduled.items;
    await db.insert(syncSteps).values([
      { sessionId: newest!.id, name: "close", position: 8, status: "pending" },
      { sessionId: newest!.id, name: "appointments", position: 6, status: "succeeded", recordsInvalid: 12, recordsExcluded: 3 },
      { sessionId: newest!.id, name: "open", position: 0, status: "succeeded" },
    ]);
    const again = await listSessionHistory({ db, actor: systemActor }, { ...query({ trigger: "schedule", limit: 1 }), locationId: location.id });
    expect(again.items[0]!.steps).toEqual([
      { name: "open", status: "succeeded", recordsInvalid: 0, recordsExcluded: 0 },
      { name: "appointments", status: "succeeded", recordsInvalid: 12, recordsExcluded: 3 },
      { name: "close", status: "pending", recordsInvalid: 0, recordsExcluded: 0 },
    ]);
  });

  it("answers an unknown location not found, as GET /api/locations/[id]/sessions and the CLI show it; a location without sessions: an empty page", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    await expect(listSessionHistory({ db, actor: systemActor }, { ...query({}), locationId: unknown })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Location not found.",
    });
    const location = await createLocation();
    expect(await listSessionHistory({ db, actor: systemActor }, { ...query({}), locationId: location.id })).toEqual({
      items: [],
      olderCursor: null,
      newerCursor: null,
    });
  });

  it("refuses a forged cursor", async () => {
    const location = await createLocation();
    await expect(
      listSessionHistory({ db, actor: systemActor }, { ...query({ after: "bm90LWEtY3Vyc29y" }), locationId: location.id }),
    ).rejects.toThrow(DomainError);
  });
});

describe("getSessionView", () => {
  async function sessionWithAttempts() {
    const location = await createLocation();
    const [session] = await db
      .insert(syncSessions)
      .values({ locationId: location.id, environment: "staging", trigger: "manual", optionalSteps: [] })
      .returning();
    const [step] = await db
      .insert(syncSteps)
      .values({ sessionId: session!.id, name: "appointments", position: 6, status: "failed", error: "HTTP 503" })
      .returning();
    const [item] = await db.insert(syncStepItems).values({ stepId: step!.id, key: "2026-01-01..2026-01-31", status: "failed" }).returning();
    const startedAt = new Date();
    await db.insert(syncAttempts).values([
      {
        sessionId: session!.id,
        stepId: step!.id,
        itemId: item!.id,
        operation: "appointments",
        attempt: 1,
        method: "POST",
        path: "/v1/x",
        status: 503,
        durationMs: 12,
        startedAt,
      },
      {
        sessionId: session!.id,
        stepId: step!.id,
        operation: "appointments",
        attempt: 1,
        method: "PUT",
        path: "/v1/y",
        status: 200,
        durationMs: 4,
        startedAt,
      },
    ]);
    return { location, session: session! };
  }

  it("puts every attempt under its item or step for staff", async () => {
    const { location, session } = await sessionWithAttempts();
    const view = await getSessionView({ db, actor: { id: "00000000-0000-4000-8000-000000000000", role: "engineer" } }, { sessionId: session.id });
    expect(view.session).toMatchObject({ id: session.id, locationName: location.name, locationTimeZone: "Europe/Berlin" });
    expect(view.includesAttempts).toBe(true);
    const [step] = view.steps;
    expect(step!.items[0]!.httpAttempts.map((attempt) => attempt.status)).toEqual([503]);
    expect(step!.httpAttempts.map((attempt) => attempt.method)).toEqual(["PUT"]);
    expect(typeof step!.items[0]!.httpAttempts[0]!.startedAt).toBe("string");
  });

  it("answers in the shape the browser parses: the JSON of the session and of its history pass the response schemas unchanged", async () => {
    const { location, session } = await sessionWithAttempts();
    const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));
    const view = asJson(
      await getSessionView({ db, actor: { id: "00000000-0000-4000-8000-000000000000", role: "engineer" } }, { sessionId: session.id }),
    );
    expect(SessionView.parse(view)).toEqual(view);
    const history = asJson(await listSessionHistory({ db, actor: systemActor }, { ...query({}), locationId: location.id }));
    expect(SessionHistoryResponse.parse(history)).toEqual(history);
  });

  it("refuses an owner the sessions of their own location (their location page shows the outcome in plain words)", async () => {
    const { location, session } = await sessionWithAttempts();
    const [owner] = await db
      .insert(users)
      .values({ email: `owner-${Math.random()}@example.test`, role: "owner" })
      .returning();
    await db.insert(locationMembers).values({ locationId: location.id, userId: owner!.id });
    await expect(getSessionView({ db, actor: owner! }, { sessionId: session.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listSessionHistory({ db, actor: owner! }, { ...query({}), locationId: location.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("startManualSession", () => {
  it("starts a manual session, then names the open one in a conflict; an unconnected location is a conflict too", async () => {
    const location = await createLocation(true);
    const evening = new Date("2026-06-01T19:30:00Z"); // 21:30 in Berlin
    const started = await startManualSession(
      { db, actor: systemActorAs("support@example.test"), now: evening },
      { locationId: location.id, full: true, optionalSteps: ["services"] },
    );
    expect(started.outsideWindow).toBe(true);
    expect(started.session).toMatchObject({
      id: started.sessionId,
      trigger: "manual",
      full: true,
      optionalSteps: ["services"],
      createdAt: expect.any(String),
    });
    const [row] = await db.select().from(syncSessions).where(eq(syncSessions.id, started.sessionId));
    expect(row).toMatchObject({ trigger: "manual", full: true, optionalSteps: ["services"], requestedByEmail: "support@example.test" });
    await expect(startManualSession({ db, actor: systemActorAs("x@example.test") }, { locationId: location.id, full: false })).rejects.toThrow(
      started.sessionId,
    );
    const unconnected = await createLocation(false);
    await expect(
      startManualSession({ db, actor: systemActorAs("x@example.test") }, { locationId: unconnected.id, full: false }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });
});

describe("isOutsideSyncWindow", () => {
  it("is inside from 09:00 up to 18:59 local time", () => {
    expect(isOutsideSyncWindow("Europe/Berlin", new Date("2026-01-10T07:59:00Z"))).toBe(true); // 08:59
    expect(isOutsideSyncWindow("Europe/Berlin", new Date("2026-01-10T08:00:00Z"))).toBe(false); // 09:00
    expect(isOutsideSyncWindow("Europe/Berlin", new Date("2026-01-10T17:59:00Z"))).toBe(false); // 18:59
    expect(isOutsideSyncWindow("Europe/Berlin", new Date("2026-01-10T18:00:00Z"))).toBe(true); // 19:00
  });
});

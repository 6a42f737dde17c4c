import { and, asc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { auditLog, locations, sandboxLocations, syncSessions, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { DomainError } from "@/lib/errors/domain-error";
import { setSchedulePaused } from "@/lib/fleet/schedule-pause";
import { connectLocation } from "@/lib/locations/connect-location";
import { disconnectLocation } from "@/lib/locations/disconnect-location";
import { updateLocation } from "@/lib/locations/update-location";
import { systemContext } from "@/lib/operations/context";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { closeUpstreamSession } from "./close-upstream-session";
import { requestSyncSession } from "./request-session";
import { runSession } from "./run-session";
import { findDueLocations } from "./schedule/due-locations";
import { sampleNow, sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, noWaits, runManualTestSync, runTestSync, sandboxRequests, useSyncSandbox } from "./testing/sync-test-setup";

// Operations that race for one location, called at the same moment against the real database and sandbox.

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
afterEach(() => clearFaults(db));

async function stepsOf(sessionId: string) {
  const steps = await db.select().from(syncSteps).where(eq(syncSteps.sessionId, sessionId)).orderBy(asc(syncSteps.position));
  return Object.fromEntries(steps.map((step) => [step.name, step.status]));
}

async function inProgress(upstreamLocationId: string) {
  const [row] = await db.select().from(sandboxLocations).where(eq(sandboxLocations.id, upstreamLocationId));
  return row!.syncInProgress;
}

/** A location whose last session failed at appointments and left the upstream session open. */
async function leftOpen() {
  const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
  await injectFault(db, { target: "batch_sync_appointments", mode: { kind: "status", status: 502 }, count: 1000 });
  const failed = await runManualTestSync(db, location.id, sampleSourceRows(), {
    expect: "failed",
    client: { maxAttempts: 1 },
    config: { stepAttempts: 1 },
  });
  await clearFaults(db);
  expect(failed.upstreamOpen).toBe(true);
  return { location, failed };
}

describe("racing a session of the same location", () => {
  it("closing the upstream session while a new session starts: the two never share it, and what runs converges", async () => {
    for (let round = 0; round < 3; round++) {
      const { location, failed } = await leftOpen();
      // The close's request is held for a moment, so that the new session is requested and run while it is in flight.
      await injectFault(db, { target: "update_management_system", mode: { kind: "delay", ms: 400 }, count: 1 });
      const [closed, started] = await Promise.allSettled([
        closeUpstreamSession(systemContext(db), { sessionId: failed.id }),
        (async () => {
          const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
          return runTestSync(db, requested.sessionId!, sampleSourceRows());
        })(),
      ]);
      expect(started.status, `round ${round}`).toBe("fulfilled");
      const session = (started as PromiseFulfilledResult<typeof syncSessions.$inferSelect>).value;
      const steps = await stepsOf(session.id);
      if (closed.status === "fulfilled") {
        // Closed first: the new session found nothing open and opened the upstream session itself.
        expect(steps.open, `round ${round}`).toBe("succeeded");
      } else {
        // The new session came first: the close is refused with a clear conflict, and the session continued the open one.
        expect(closed.reason).toBeInstanceOf(DomainError);
        expect((closed.reason as DomainError).code).toBe("CONFLICT");
        expect(steps.open, `round ${round}`).toBe("skipped");
      }
      expect(steps.close).toBe("succeeded");
      expect(await inProgress(location.upstreamLocationId)).toBe(false);
      expect((await sandboxRequests(db, location.upstreamLocationId)).filter((line) => !/ 2\d\d$/.test(line) && !line.includes("502"))).toEqual([]);
    }
  });

  it("two closes of one session at once: one request upstream, the other refused", async () => {
    const { location, failed } = await leftOpen();
    const before = (await sandboxRequests(db, location.upstreamLocationId)).length;
    const results = await Promise.allSettled([1, 2].map(() => closeUpstreamSession(systemContext(db), { sessionId: failed.id })));
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((results.find((result) => result.status === "rejected") as PromiseRejectedResult).reason).toBeInstanceOf(DomainError);
    expect((await sandboxRequests(db, location.upstreamLocationId)).slice(before)).toEqual(["PUT update_management_system 200"]);
  });

  it("disconnecting while a session sends stops it before its next request, and its upstream location cannot change until it ended", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    // The session waits on its services request while the location is disconnected.
    await injectFault(db, { target: "batch_sync_services", mode: { kind: "delay", ms: 2000 }, count: 1 });
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    const running = runSession(systemContext(db), {
      sessionId: requested.sessionId!,
      reader: createArraySourceReader(sampleSourceRows()),
      now: sampleNow,
      client: noWaits,
      config: { stepBackoffMs: 0 },
    });
    for (
      let waited = 0;
      !(await sandboxRequests(db, location.upstreamLocationId)).some((line) => line.includes("service_categories"));
      waited += 20
    ) {
      if (waited > 20_000) throw new Error("the session never reached its categories");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await disconnectLocation({ db, actor: systemActor }, { locationId: location.id });
    const moved = await updateLocation(
      { db, actor: systemActor },
      { locationId: location.id, upstreamLocationId: "another-upstream-location" },
    ).catch((error: unknown) => error);
    expect(moved).toBeInstanceOf(DomainError);
    expect((moved as DomainError).message).toMatch(/^A sync session is running for this location .*change where it syncs to\.$/);
    expect(await running).toBe("cancelled");
    // The audit says what the disconnect did to the session: asked it to stop (a running session may still finish).
    const [disconnected] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "location.disconnected"), eq(auditLog.targetId, location.id)));
    expect(disconnected!.details).toMatchObject({ stopRequestedSessionIds: [requested.sessionId] });
    expect(disconnected!.details).not.toHaveProperty("cancelledSessionIds");
    const sent = await sandboxRequests(db, location.upstreamLocationId);
    // Nothing after the services request that was in flight (stopped with it, or answered).
    expect(sent.at(-1)).toMatch(/^POST batch_sync_service(s|_categories) 200$/);
    expect(sent.filter((line) => /contact_details|appointments|openings|upload/.test(line))).toEqual([]);
    const [row] = await db.select().from(locations).where(eq(locations.id, location.id));
    expect(row!.upstreamLocationId).toBe(location.upstreamLocationId);
    // Once the session ended, its upstream session is still open (cancelled): the location points elsewhere only once
    // that is closed, with the token for it.
    const repoint = () => updateLocation({ db, actor: systemActor }, { locationId: location.id, upstreamLocationId: "another-upstream-location" });
    await expect(repoint()).rejects.toThrow(/left the upstream session open .*close its upstream session/);
    await connectLocation(
      { db, actor: systemActor, upstreamClient: noWaits },
      { locationId: location.id, email: setup.fixture.owner.email, password: setup.fixture.owner.password },
    );
    await closeUpstreamSession({ db, actor: systemActor, upstreamClient: noWaits }, { sessionId: requested.sessionId! });
    await disconnectLocation({ db, actor: systemActor }, { locationId: location.id });
    await repoint();
  });

  it("a schedule paused after the tick chose the location starts nothing", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array", timeZone: "Europe/Berlin", syncTime: "10:00" });
    const now = new Date("2026-06-15T08:30:00Z");
    const due = (await findDueLocations(db, now)).find((candidate) => candidate.locationId === location.id);
    expect(due).toBeDefined();
    await setSchedulePaused({ db, actor: systemActor }, { locationId: location.id, paused: true, reason: "owner on holiday" });
    const requested = await requestSyncSession(systemContext(db), {
      locationId: location.id,
      trigger: "schedule",
      requestedByEmail: null,
      scheduledFor: due!.localToday,
    });
    expect(requested).toEqual({ started: false, reason: "schedule_paused", sessionId: null });
    expect(await db.select().from(syncSessions).where(eq(syncSessions.locationId, location.id))).toEqual([]);
  });
});

import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, syncAttempts, syncSessions, syncStepItems, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemActorAs, type OperationActor } from "@/lib/auth/permissions";
import { createUser } from "@/lib/users/create-user";
import type { SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment, sourceCustomer } from "@/lib/source/testing/source-row-factories";
import { confirmRemovals } from "../confirm-removals";
import { ReplayInput } from "../session-inputs";
import { emptyUpstream, expectedUpstream, upstreamOf } from "../testing/expected-upstream";
import { sampleMappingAt, sampleSourceRows } from "../testing/sample-source";
import {
  createConnectedLocation,
  runManualTestSync,
  runTestSync,
  sandboxRequests,
  useSyncSandbox,
  type TestSyncOptions,
} from "../testing/sync-test-setup";
import { startReplay } from "./start-replay";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
const mapping = sampleMappingAt();
const open = "PUT update_management_system 200";
const close = open;
async function staff(role: "support" | "owner"): Promise<OperationActor> {
  const email = `${role}-${Math.random().toString(36).slice(2)}@example.test`;
  const created = await createUser({ db, actor: systemActorAs("test") }, { email, name: "", role });
  return { id: created.id, email, role };
}
const support = await staff("support");

async function replay(locationId: string, upstreamLocationId: string, rows: SourceRows, input: ReplayInput, options: TestSyncOptions = {}) {
  const before = (await sandboxRequests(db, upstreamLocationId)).length;
  const { sessionId } = await startReplay({ db, actor: support }, { ...ReplayInput.parse(input), locationId });
  const session = await runTestSync(db, sessionId, rows, options);
  const steps = await db.select().from(syncSteps).where(eq(syncSteps.sessionId, sessionId)).orderBy(asc(syncSteps.position));
  const items = await db
    .select({ step: syncSteps.name, key: syncStepItems.key, sent: syncStepItems.recordsSent })
    .from(syncStepItems)
    .innerJoin(syncSteps, eq(syncSteps.id, syncStepItems.stepId))
    .where(eq(syncSteps.sessionId, sessionId))
    .orderBy(asc(syncSteps.position), asc(syncStepItems.position));
  return { session, steps, items, sent: (await sandboxRequests(db, upstreamLocationId)).slice(before) };
}

describe("a scoped replay", () => {
  it("sends the appointments of one date range again, inside an upstream session of its own, and nothing else", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    await runManualTestSync(db, location.id, rows);

    const replayed = await replay(location.id, location.upstreamLocationId, rows, {
      steps: ["appointments"],
      from: "2026-03-01",
      to: "2026-03-31",
      reason: "the upstream lost March",
    });
    expect(replayed.sent).toEqual([open, "POST batch_sync_appointments 200", "PUT upload 200", close]);
    expect(replayed.items).toEqual([{ step: "appointments", key: "2026-03-01..2026-03-31", sent: 2 }]);
    expect(replayed.steps.filter((step) => step.status === "succeeded").map((step) => step.name)).toEqual(["open", "appointments", "close"]);
    const [post] = await db
      .select({ body: syncAttempts.requestBody })
      .from(syncAttempts)
      .where(and(eq(syncAttempts.sessionId, replayed.session.id), eq(syncAttempts.method, "POST")));
    expect(JSON.parse(post!.body!)).toEqual({ start_date: "2026-03-01", end_date: "2026-03-31" });
    expect(replayed.session).toMatchObject({
      status: "succeeded",
      replay: { steps: ["appointments"], from: "2026-03-01", to: "2026-03-31", reason: "the upstream lost March" },
    });
    const [audited] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "sync.replay_started"), eq(auditLog.targetId, location.id)));
    expect(audited).toMatchObject({ actorEmail: support.email!, details: { sessionId: replayed.session.id, reason: "the upstream lost March" } });
    expect(await upstreamOf(db, location.upstreamLocationId)).toEqual(expectedUpstream(emptyUpstream(), rows, mapping));
  });

  it("a range from long ago imports from the first month either side holds an appointment, not from its start", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    await runManualTestSync(db, location.id, rows);
    const first = rows.appointments!.map((row) => row.starts_at!.slice(0, 10)).sort()[0]!;

    const replayed = await replay(location.id, location.upstreamLocationId, rows, {
      steps: ["appointments"],
      from: "1990-01-01",
      to: "2026-03-31",
      reason: "resend everything up to March",
    });
    expect(replayed.items[0]).toMatchObject({ step: "appointments", key: expect.stringMatching(new RegExp(`^${first}\\.\\.`)) });
    expect(replayed.items.length).toBeLessThan(24);
    expect(replayed.session.status).toBe("succeeded");
    expect(await upstreamOf(db, location.upstreamLocationId)).toEqual(expectedUpstream(emptyUpstream(), rows, mapping));
  });

  it("sends every contact again, unchanged ones too, and names only contacts the upstream holds in a replay without them", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    await runManualTestSync(db, location.id, rows);

    const contacts = await replay(location.id, location.upstreamLocationId, rows, {
      steps: ["contact_details"],
      reason: "a CRM import overwrote them",
    });
    expect(contacts.sent).toEqual([open, "POST contact_details 200", "PUT upload 200", close]);
    expect(contacts.items).toEqual([{ step: "contact_details", key: "part 1", sent: 4 }]);

    // A new customer and their March visit: the upstream does not hold the customer, so a replay of March leaves the visit out.
    rows.customers!.push(sourceCustomer("cu5", { last_name: "Neu" }));
    rows.appointments!.push(sourceAppointment("a8", "2026-03-18", { customer_id: "cu5" }));
    const march = await replay(location.id, location.upstreamLocationId, rows, {
      steps: ["appointments"],
      from: "2026-03-01",
      to: "2026-03-31",
      reason: "resend March",
    });
    expect(march.items).toEqual([{ step: "appointments", key: "2026-03-01..2026-03-31", sent: 2 }]);
    expect(march.steps.find((step) => step.name === "appointments")!.recordsInvalid).toBe(1);
    expect((await upstreamOf(db, location.upstreamLocationId)).appointments.a8).toBeUndefined();
  });

  it("stops before sending anything when the source's range would remove past the limit; a confirmed replay sends it", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    await runManualTestSync(db, location.id, rows);
    const config = { removalThresholdMinimum: 1, removalThresholdPercent: 10 };

    // The source's query now returns none of March.
    const broken = { ...rows, appointments: rows.appointments!.filter((row) => !row.starts_at!.startsWith("2026-03")) };
    const input = { steps: ["appointments"], from: "2026-03-01", to: "2026-03-31", reason: "resend March" } as const;
    const stopped = await replay(
      location.id,
      location.upstreamLocationId,
      broken,
      { ...input, steps: [...input.steps] },
      { expect: "failed", config },
    );
    expect(stopped.sent).toEqual([]);
    expect(stopped.session.removalStop).toMatchObject({ checks: [{ step: "appointments", removals: 2, held: 5 }] });

    const confirmed = await confirmRemovals({ db, actor: systemActor }, { sessionId: stopped.session.id, reason: "March was really cancelled" });
    await runTestSync(db, confirmed.sessionId, broken, { config });
    const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, confirmed.sessionId));
    expect(session!.replay).toMatchObject({ steps: ["appointments"], from: "2026-03-01" });
    const held = await upstreamOf(db, location.upstreamLocationId);
    expect(Object.keys(held.appointments).sort()).toEqual(["a1", "a2", "a4"]);
  });

  it("with the default limits, stops when one month's import would send nothing while the upstream holds its visits", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    await runManualTestSync(db, location.id, rows);
    const before = Object.keys((await upstreamOf(db, location.upstreamLocationId)).appointments).sort();
    const march = rows.appointments!.filter((row) => row.starts_at!.startsWith("2026-03"));
    expect(march.length).toBeGreaterThanOrEqual(2);

    // The source's query returns none of March: a small share of the location (under the 50 of the usual limit), all of March.
    const broken = { ...rows, appointments: rows.appointments!.filter((row) => !row.starts_at!.startsWith("2026-03")) };
    for (const range of [
      { from: "2026-03-01", to: "2026-03-31" },
      { from: "2026-02-01", to: "2026-04-30" },
    ]) {
      const stopped = await replay(
        location.id,
        location.upstreamLocationId,
        broken,
        { steps: ["appointments"], ...range, reason: "resend March" },
        { expect: "failed" },
      );
      expect(stopped.sent).toEqual([]);
      expect(stopped.session.removalStop).toMatchObject({ checks: [{ step: "appointments", removals: march.length }] });
    }
    expect(Object.keys((await upstreamOf(db, location.upstreamLocationId)).appointments).sort()).toEqual(before);

    // One of March's visits really gone: the import still sends the rest, and removes the one.
    const oneGone = { ...rows, appointments: rows.appointments!.filter((row) => row.id !== march[0]!.id) };
    const sent = await replay(location.id, location.upstreamLocationId, oneGone, {
      steps: ["appointments"],
      from: "2026-03-01",
      to: "2026-03-31",
      reason: "resend March",
    });
    expect(sent.session.removalStop).toBeNull();
    expect(Object.keys((await upstreamOf(db, location.upstreamLocationId)).appointments).sort()).toEqual(
      before.filter((key) => key !== march[0]!.id),
    );
  });

  // What a replay sends, not how many rows the source has: a row the checks leave out is removed as surely as a missing one.
  it("stops when the checks would leave out a range's appointments or the source returns no staff, though no row is missing", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    await runManualTestSync(db, location.id, rows);
    const config = { removalThresholdMinimum: 1, removalThresholdPercent: 10 };

    // Every March row is still there, but names a customer nobody holds: each fails its check.
    const broken = {
      ...rows,
      appointments: rows.appointments!.map((row) => (row.starts_at!.startsWith("2026-03") ? { ...row, customer_id: "nobody" } : row)),
    };
    const march = await replay(
      location.id,
      location.upstreamLocationId,
      broken,
      { steps: ["appointments"], from: "2026-03-01", to: "2026-03-31", reason: "resend March" },
      { expect: "failed", config },
    );
    expect(march.sent).toEqual([]);
    expect(march.session.removalStop).toMatchObject({ checks: [{ step: "appointments", removals: 2, held: 5 }] });

    // A staff query that came back empty: a replay of the calendars would remove every one the upstream holds.
    const held = Object.keys((await upstreamOf(db, location.upstreamLocationId)).calendars).sort();
    const calendars = await replay(
      location.id,
      location.upstreamLocationId,
      { ...rows, staff: [] },
      { steps: ["calendars"], reason: "resend the staff" },
      { expect: "failed" },
    );
    expect(calendars.sent).toEqual([]);
    expect(calendars.session.removalStop).toMatchObject({
      checks: [{ step: "calendars", removals: held.length, held: held.length, threshold: held.length - 1, examples: held }],
    });
  });

  it("two replays of one location asked at once: one is queued, the other refused with 409 naming it; one audit entry", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const ask = () => startReplay({ db, actor: support }, { locationId: location.id, steps: ["openings"], reason: "resend openings" });
    const outcomes = await Promise.allSettled([ask(), ask(), ask()]);
    const started = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value.sessionId] : []));
    expect(started).toHaveLength(1);
    for (const outcome of outcomes.filter((candidate) => candidate.status === "rejected"))
      expect(outcome).toMatchObject({ reason: { code: "CONFLICT", message: expect.stringContaining(started[0]!) } });
    expect(await db.select().from(syncSessions).where(eq(syncSessions.locationId, location.id))).toHaveLength(1);
    const audited = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "sync.replay_started"), eq(auditLog.targetId, location.id)));
    expect(audited).toHaveLength(1);
    await db.update(syncSessions).set({ status: "cancelled" }).where(eq(syncSessions.id, started[0]!));
  });

  it("refuses what it cannot do: a date range beside another step, a range backwards, vehicles of a salon, an owner", async () => {
    expect(ReplayInput.safeParse({ steps: ["contact_details"], from: "2026-03-01", reason: "x y z" }).success).toBe(false);
    expect(ReplayInput.safeParse({ steps: ["appointments"], from: "2026-03-02", to: "2026-03-01", reason: "x y z" }).success).toBe(false);
    expect(ReplayInput.safeParse({ steps: ["appointments"], reason: "" }).success).toBe(false);
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await expect(startReplay({ db, actor: support }, { locationId: location.id, steps: ["vehicles"], reason: "resend" })).rejects.toMatchObject({
      code: "INVALID",
    });
    // A range past the appointment window (today + 6 months) would send nothing: refused, naming from.
    await expect(
      startReplay(
        { db, actor: support, now: new Date("2026-03-01T12:00:00Z") },
        { locationId: location.id, steps: ["appointments"], from: "2026-09-02", to: "2026-12-31", reason: "resend" },
      ),
    ).rejects.toMatchObject({ code: "INVALID", fields: [{ field: "from", reason: expect.stringContaining("2026-09-01") }] });
    const owner = await staff("owner");
    await expect(startReplay({ db, actor: owner }, { locationId: location.id, steps: ["openings"], reason: "resend" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await db.select().from(syncSessions).where(eq(syncSessions.locationId, location.id))).toEqual([]);
  });
});

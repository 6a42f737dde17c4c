import { systemContext } from "@/lib/operations/context";
import { and, asc, eq, gt } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { locations, previewRecords, sandboxLocations, sandboxRequestLog, syncAttempts, syncSessions, syncStepItems, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { createSqlSourceReader } from "@/lib/source/sql-source-reader";
import { monthlyRanges, rangeKey } from "./plan/date-ranges";
import { appointmentHorizonEnd, localToday } from "./plan/local-dates";
import { requestSyncSession } from "./request-session";
import { runSession } from "./run-session";
import { compareType, openingsInAnyOrder } from "./testing/sync-assertions";
import { computeQueuedPreview, createConnectedLocation, noWaits, useSyncSandbox } from "./testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const reader = createSqlSourceReader({ url: testDb.url });
const setup = await useSyncSandbox(db);
afterAll(async () => {
  await reader.close();
});

const recordTypes = ["calendars", "service_categories", "services", "contact_details", "appointments", "openings"] as const;

describe("a first sync of a demo location", () => {
  it("follows the protocol exactly and leaves the sandbox holding the valid preview records", async () => {
    const [sourceKey] = await generateDemoSource(db, { locations: 1, contacts: 25, years: 1, seed: 11, sourceKeys: ["first-sync"] });
    const location = await createConnectedLocation(db, setup, { sourceKey, attentionReason: "The last sync failed at appointments: x. Resume it." });
    const [{ before } = { before: 0 }] = await testDb.sql<{ before: number }[]>`select coalesce(max(id), 0)::int as before from sandbox.request_log`;

    const requested = await requestSyncSession(systemContext(db), {
      locationId: location.id,
      trigger: "manual",
      requestedByEmail: "support@example.test",
    });
    expect(requested.started).toBe(true);
    const result = await runSession(systemContext(testDb.db), {
      sessionId: requested.sessionId!,
      reader,
      client: noWaits,
      config: { stepBackoffMs: 0, contactChunkSize: 10 },
    });
    const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
    expect({ result, error: session!.error, streamed: session!.streamed }).toEqual({ result: "succeeded", error: null, streamed: true });
    // Sent straight from the source; the preview the location gets afterwards says what was sent.
    expect(await db.select().from(previewRecords).where(eq(previewRecords.locationId, location.id))).toEqual([]);
    // At the session's moment: the next 72 hours of openings it sent, not those of a slot start later.
    await computeQueuedPreview(testDb.db, location.id, reader, session!.startedAt!);
    const [ended] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
    expect(ended).toMatchObject({ status: "succeeded", upstreamOpen: false, error: null });
    const steps = await db.select().from(syncSteps).where(eq(syncSteps.sessionId, session!.id)).orderBy(asc(syncSteps.position));
    expect(steps.map((step) => `${step.name}:${step.status}`)).toEqual([
      "open:succeeded",
      "calendars:succeeded",
      "service_categories:succeeded",
      "services:succeeded",
      "contact_details:succeeded",
      "vehicles:skipped",
      "appointments:succeeded",
      "openings:succeeded",
      "close:succeeded",
    ]);
    const itemsOf = async (name: string) => {
      const step = steps.find((candidate) => candidate.name === name)!;
      return db.select().from(syncStepItems).where(eq(syncStepItems.stepId, step.id)).orderBy(asc(syncStepItems.position));
    };
    const contactItems = await itemsOf("contact_details");
    const appointmentItems = await itemsOf("appointments");
    const openingItems = await itemsOf("openings");
    expect(contactItems.length).toBeGreaterThanOrEqual(3);
    expect(contactItems.map((item) => item.key)).toEqual(contactItems.map((_, index) => `part ${index + 1}`));

    // One import per calendar month from the source's earliest appointment to today + 6 months (local).
    const earliest = (await reader.earliestStart("appointments", { sourceKey: sourceKey! }))!.slice(0, 10);
    const now = new Date();
    expect(appointmentItems.map((item) => item.key)).toEqual(
      monthlyRanges(
        earliest < localToday(now, "Europe/Berlin") ? earliest : localToday(now, "Europe/Berlin"),
        appointmentHorizonEnd(now, "Europe/Berlin"),
      ).map(rangeKey),
    );
    expect(openingItems.length).toBeGreaterThan(0);

    const log = await db
      .select()
      .from(sandboxRequestLog)
      .where(and(eq(sandboxRequestLog.locationId, location.upstreamLocationId), gt(sandboxRequestLog.id, before)))
      .orderBy(sandboxRequestLog.id);
    const upload = (endpoint: string) => [`POST ${endpoint} 200`, "PUT upload 200"];
    const lines = log.map((row) => `${row.method} ${row.endpoint} ${row.status}`);
    expect(openingsInAnyOrder(lines)).toEqual(
      openingsInAnyOrder([
        "PUT update_management_system 200",
        "POST batch_sync_calendars 200",
        "POST batch_sync_service_categories 200",
        "POST batch_sync_services 200",
        ...contactItems.flatMap(() => upload("contact_details")),
        ...appointmentItems.flatMap(() => upload("batch_sync_appointments")),
        ...openingItems.flatMap(() => upload("batch_sync_openings")),
        "PUT update_management_system 200",
      ]),
    );
    // Every exchange is in the history, against its step, in the sandbox's order but among the openings imports (several at once).
    const attempts = await db.select().from(syncAttempts).where(eq(syncAttempts.sessionId, session!.id)).orderBy(asc(syncAttempts.id));
    const openingsFrom = lines.indexOf("POST batch_sync_openings 200");
    const exchanges = (list: string[]) => [...list.slice(0, openingsFrom), ...list.slice(openingsFrom, -1).sort(), ...list.slice(-1)];
    expect(exchanges(attempts.map((attempt) => `${attempt.method} ${attempt.status}`))).toEqual(
      exchanges(log.map((row) => `${row.method} ${row.status}`)),
    );
    expect(attempts.every((attempt) => attempt.stepId !== null)).toBe(true);
    expect(
      attempts
        .filter((attempt) => attempt.method === "PUT" && attempt.itemId)
        .every((attempt) => attempt.records !== null && attempt.path.includes("upload")),
    ).toBe(true);

    for (const type of recordTypes) {
      const compared = await compareType(db, { locationId: location.id, upstreamLocationId: location.upstreamLocationId, type });
      expect(compared.stored, type).toEqual(compared.expected);
      expect(compared.syncedKeys, type).toEqual(Object.keys(compared.expected).sort());
    }
    const [sandboxLocation] = await db.select().from(sandboxLocations).where(eq(sandboxLocations.id, location.upstreamLocationId));
    expect(sandboxLocation).toMatchObject({ syncInProgress: false });
    const [after] = await db.select().from(locations).where(eq(locations.id, location.id));
    expect(after!.attentionReason).toBeNull();
  });
});

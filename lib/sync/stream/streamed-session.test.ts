import { and, asc, eq } from "drizzle-orm";
import { systemContext } from "@/lib/operations/context";
import { describe, expect, it } from "vitest";
import { previewRecords, syncSessions, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import type { SourceReader } from "@/lib/source/source-reader";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment } from "@/lib/source/testing/source-row-factories";
import { requestSyncSession } from "../request-session";
import { runSession } from "../run-session";
import { resumeSession } from "../session-actions";
import { expectedUpstream, upstreamOf, emptyUpstream } from "../testing/expected-upstream";
import { sampleMappingAt, sampleNow, sampleSourceRows } from "../testing/sample-source";
import { computeQueuedPreview, createConnectedLocation, noWaits, sandboxRequests, useSyncSandbox } from "../testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
const context = sampleMappingAt();

/** A reader whose appointment reads fail (a source that broke mid-session) until `healed` is set. */
function breakingReader(rows: SourceRows) {
  const reader = createArraySourceReader(rows);
  const state = { healed: false };
  const broken: SourceReader = {
    ...reader,
    read(resource, params, options) {
      if (resource === "appointments" && !state.healed) throw new Error("connection to the management system was lost");
      return reader.read(resource, params, options);
    },
  };
  return { reader: broken, state };
}

async function run(sessionId: string, reader: SourceReader) {
  return runSession(systemContext(testDb.db), { sessionId, reader, now: sampleNow, client: noWaits, config: { stepBackoffMs: 0, stepAttempts: 1 } });
}

describe("a streamed first sync", () => {
  it("stores no preview while it sends, fails at the step whose source read broke, and a resume sends only what is left and what it names", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    const { reader, state } = breakingReader(rows);
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(await run(requested.sessionId!, reader)).toBe("failed");

    const [failed] = await db.select().from(syncSessions).where(eq(syncSessions.id, requested.sessionId!));
    expect(failed).toMatchObject({ status: "failed", streamed: true, currentStep: "appointments", upstreamOpen: true });
    // Said as a failed source read (the message of an unknown error is logged, not shown), not retried as an upload.
    expect(failed!.error).toBe("Reading the appointments from the source failed (Error, logged) after 1 attempt");
    const appointmentsStep = (await db.select().from(syncSteps).where(eq(syncSteps.sessionId, requested.sessionId!))).find(
      (step) => step.name === "appointments",
    );
    expect(appointmentsStep).toMatchObject({ status: "failed", attempts: 1 });
    expect(await db.select().from(previewRecords).where(eq(previewRecords.locationId, location.id))).toEqual([]);
    const before = (await sandboxRequests(db, location.upstreamLocationId)).length;

    state.healed = true;
    const resumed = await resumeSession({ db, actor: systemActor }, { sessionId: requested.sessionId! });
    expect(await run(resumed.sessionId!, reader)).toBe("succeeded");
    const [after] = await db.select().from(syncSessions).where(eq(syncSessions.id, resumed.sessionId!));
    expect(after).toMatchObject({ status: "succeeded", streamed: true, previewRunId: null });
    const steps = await db.select().from(syncSteps).where(eq(syncSteps.sessionId, resumed.sessionId!)).orderBy(asc(syncSteps.position));
    expect(steps.filter((step) => step.status === "succeeded").map((step) => step.name)).toEqual([
      "calendars",
      "service_categories",
      "services",
      "contact_details",
      "appointments",
      "openings",
      "close",
    ]);
    // What the months name ran again: the catalogue sent whole, the contacts the upstream accepted as they are not again.
    const sent = (await sandboxRequests(db, location.upstreamLocationId)).slice(before);
    expect(sent.filter((line) => /calendars|categories|services|contact_details/.test(line))).toEqual([
      "POST batch_sync_calendars 200",
      "POST batch_sync_service_categories 200",
      "POST batch_sync_services 200",
    ]);
    expect(sent.at(-1)).toBe("PUT update_management_system 200");

    // What the upstream holds is what the policies say of the source (references checked against the contacts read again).
    expect(await upstreamOf(db, location.upstreamLocationId)).toEqual(expectedUpstream(emptyUpstream(), rows, context));
  });

  it("sends an appointment whose service is not sent without it, and the others as mapped", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    rows.appointments!.push(sourceAppointment("a9", "2026-03-13", { customer_id: "cu1", service_id: "sv-gone" }));
    const reader = createArraySourceReader(rows);
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(await run(requested.sessionId!, reader)).toBe("succeeded");

    const held = await upstreamOf(db, location.upstreamLocationId);
    expect(held.appointments["a9"]).toMatchObject({ contact_detail_external_id: "cu1", calendar_external_id: "s1" });
    expect(held.appointments["a9"]).not.toHaveProperty("service_external_id");
    expect(held.appointments["a3"]).toMatchObject({ service_external_id: "sv1", calendar_external_id: "s1" });
    expect(held).toEqual(expectedUpstream(emptyUpstream(), rows, context));
  });

  it("sends a key that the source repeats in two months once, from the month sent first, and counts the other as invalid", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    // " a1" trims to the key of a1 (February): the copy in March repeats it.
    rows.appointments!.push(sourceAppointment(" a1", "2026-03-05", { customer_id: "cu2", status: "completed" }));
    const reader = createArraySourceReader(rows);
    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(await run(requested.sessionId!, reader)).toBe("succeeded");

    const held = await upstreamOf(db, location.upstreamLocationId);
    expect(held.appointments["a1"]).toMatchObject({ start_at: expect.stringMatching(/^2026-02-05/) });
    const [appointments] = await db
      .select()
      .from(syncSteps)
      .where(and(eq(syncSteps.sessionId, requested.sessionId!), eq(syncSteps.name, "appointments")));
    expect(appointments!.recordsInvalid).toBe(1);

    // The preview the location gets afterwards says the same of the copy.
    await computeQueuedPreview(testDb.db, location.id, reader, sampleNow);
    const copies = await db
      .select({ status: previewRecords.status, sourceId: previewRecords.sourceId })
      .from(previewRecords)
      .where(and(eq(previewRecords.locationId, location.id), eq(previewRecords.recordKey, "a1")));
    expect(copies.map((copy) => copy.status).sort()).toEqual(["error", "valid"]);
  });
});

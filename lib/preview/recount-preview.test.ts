import { systemContext } from "@/lib/operations/context";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { previewRecords, previewRuns, syncedRecords, syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import type { AnyJob } from "@/lib/jobs/define-job";
import { startJobEngine } from "@/lib/jobs/job-engine";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceCustomer } from "@/lib/source/testing/source-row-factories";
import { computePreview } from "./compute-preview";
import { countPreview } from "./preview-counts";
import { previewCountsState, recountPreview } from "./recount-preview";
import { recountPreviewJob, requestPreviewRecount } from "./recount-preview-job";
import { createPreviewLocation } from "./testing/preview-location";

const testDb = await useTestDatabase();
const { db } = testDb;
const now = new Date("2026-03-27T09:00:00Z");
const engine = await startJobEngine({ databaseUrl: testDb.url, work: true, jobs: [recountPreviewJob] as unknown as AnyJob[], log: () => {} });
afterAll(async () => {
  await stopJobSender();
  await engine.stop();
});

const rows = (): SourceRows => ({
  staff: [{ id: "s1", first_name: "Anna", last_name: "Schmidt", display_name: null }],
  service_categories: [],
  services: [],
  customers: [sourceCustomer("cu1"), sourceCustomer("cu2"), sourceCustomer("cu3")],
  appointments: [],
  availability: [],
});

let locationId: string;

beforeEach(async () => {
  locationId = await createPreviewLocation(db);
});

/** A preview run as a sync session makes it: `sessionId` set, so it is not counted. */
async function sessionRun() {
  const [run] = await db.insert(previewRuns).values({ locationId }).returning();
  await computePreview(systemContext(testDb.db), { runId: run!.id, reader: createArraySourceReader(rows()), now, sessionId: crypto.randomUUID() });
  return run!.id;
}

const runOf = async (runId: string) => (await db.select().from(previewRuns).where(eq(previewRuns.id, runId)))[0]!;

async function session(status: "running" | "succeeded", finishedAt: Date | null) {
  await db.insert(syncSessions).values({
    locationId,
    environment: "staging",
    trigger: "manual",
    optionalSteps: [],
    status,
    startedAt: new Date(Date.now() - 60_000),
    finishedAt,
  });
}

/** What a session's accepted contacts leave behind. */
async function accept(...keys: string[]) {
  const records = await db
    .select()
    .from(previewRecords)
    .where(and(eq(previewRecords.locationId, locationId), eq(previewRecords.recordType, "contact_details")));
  for (const record of records.filter((candidate) => keys.includes(candidate.recordKey!))) {
    await db
      .insert(syncedRecords)
      .values({ locationId, recordType: "contact_details", recordKey: record.recordKey!, contentHash: record.contentHash! });
  }
}

describe("preview counts", () => {
  it("a page's or the CLI's run is counted when it ends", async () => {
    const [run] = await db.insert(previewRuns).values({ locationId }).returning();
    await computePreview(systemContext(testDb.db), { runId: run!.id, reader: createArraySourceReader(rows()), now });
    const done = await runOf(run!.id);
    expect(done.counts!.contact_details).toMatchObject({ sourceRows: 3, valid: 3, new: 3 });
    expect(done.countedAt).not.toBeNull();
    expect(await previewCountsState(db, done)).toBe("current");
  });

  it("a session's run is counted after the session, against what it got accepted; not while a session sends", async () => {
    const runId = await sessionRun();
    expect(await runOf(runId)).toMatchObject({ status: "succeeded", counts: null, countedAt: null });

    await session("running", null);
    expect(await previewCountsState(db, await runOf(runId))).toBe("sync_running");
    await recountPreview(systemContext(testDb.db), { locationId });
    expect((await runOf(runId)).counts).toBeNull();

    await accept("cu1", "cu2");
    await db.update(syncSessions).set({ status: "succeeded", finishedAt: new Date() }).where(eq(syncSessions.locationId, locationId));
    expect(await previewCountsState(db, await runOf(runId))).toBe("outdated");
    await recountPreview(systemContext(testDb.db), { locationId });
    const counted = await runOf(runId);
    expect(counted.counts!.contact_details).toMatchObject({ sourceRows: 3, valid: 3, new: 1, unchanged: 2 });
    expect(counted.counts).toEqual(
      await countPreview(testDb.db, locationId, ["calendars", "service_categories", "services", "contact_details", "appointments", "openings"]),
    );
    expect(await previewCountsState(db, counted)).toBe("current");
  });

  it("a session that ended after the counts makes them outdated; the preview.count job counts them again", async () => {
    const runId = await sessionRun();
    await recountPreview(systemContext(testDb.db), { locationId });
    expect((await runOf(runId)).counts!.contact_details).toMatchObject({ new: 3, unchanged: 0 });

    await accept("cu1", "cu2", "cu3");
    await session("succeeded", new Date(Date.now() + 1000));
    expect(await previewCountsState(db, await runOf(runId))).toBe("outdated");

    await requestPreviewRecount(locationId);
    await expect.poll(async () => (await runOf(runId)).counts!.contact_details!.unchanged, { timeout: 20_000, interval: 200 }).toBe(3);
    expect((await runOf(runId)).counts!.contact_details).toMatchObject({ new: 0, unchanged: 3 });
  });
});

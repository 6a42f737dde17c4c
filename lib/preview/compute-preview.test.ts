import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { systemContext } from "@/lib/operations/context";
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { locations, previewIssues, previewRecords, previewRuns, syncedRecords } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { recordSchemas } from "@/lib/upstream/records";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import type { AppointmentRow } from "@/lib/source/source-rows";
import { sourceAppointment, sourceCustomer } from "@/lib/source/testing/source-row-factories";
import { computePreview } from "./compute-preview";
import { getPreviewRecord, listPreviewRecords } from "./read-preview";
import { listRootCauses } from "./root-causes";
import { PreviewQuery } from "./preview-inputs";
import { countPreview } from "./preview-counts";
import type { PreviewRecordType } from "./preview-plan";
import { createPreviewLocation } from "./testing/preview-location";

const testDb = await useTestDatabase();
const { db } = testDb;
const now = new Date("2026-03-27T09:00:00Z");

const customer = sourceCustomer;

const appointment = (id: string, overrides: Partial<AppointmentRow> = {}) =>
  sourceAppointment(id, "2026-03-20", { status: "completed", ...overrides });

function sourceRows(): SourceRows {
  return {
    staff: [
      { id: "s1", first_name: "Anna", last_name: "Schmidt", display_name: "Anna S." },
      { id: "s2", first_name: "Bob", last_name: "Baker", display_name: null },
    ],
    service_categories: [{ id: "c1", name: "Hair", position: 1 }],
    services: [
      { id: "sv1", name: "Cut", description: "A haircut", bookable: true, price: "25.00", category_id: "c1", staff_ids: ["s1", "s2"], position: 1 },
      { id: "sv2", name: "Old colour", description: null, bookable: true, price: "40", category_id: "c-deleted", staff_ids: ["s1"], position: 2 },
    ],
    customers: [customer("cu1"), customer("cu2", { phone: "n/a" }), customer("cu1", { first_name: "Anna (copy)" })],
    appointments: [
      appointment("a1"),
      appointment("a2", { status: "Canceled" }),
      appointment("a3", { service_id: "sv2" }),
      appointment("a4", { customer_id: "ghost" }),
      // 02:30 does not exist in Berlin on 2026-03-29 (clocks jump from 02:00 to 03:00).
      appointment("a5", { starts_at: "2026-03-29 02:30:00", ends_at: "2026-03-29 03:30:00", status: "booked" }),
    ],
    availability: [
      { staff_id: "s1", service_id: "sv1", starts_at: "2026-03-28 10:00:00" },
      { staff_id: "s1", service_id: "sv1", starts_at: "2026-04-05 10:00:00" },
    ],
  };
}

let locationId: string;

async function runPreview(rows: SourceRows = sourceRows()) {
  const [run] = await db.insert(previewRuns).values({ locationId }).returning();
  await computePreview(systemContext(testDb.db), { runId: run!.id, reader: createArraySourceReader(rows), now, batchSize: 2 });
  const [done] = await db.select().from(previewRuns).where(eq(previewRuns.id, run!.id));
  return done!;
}

async function recordsOf(type: string) {
  return db
    .select()
    .from(previewRecords)
    .where(and(eq(previewRecords.locationId, locationId), eq(previewRecords.recordType, type)))
    .orderBy(previewRecords.seq);
}

beforeEach(async () => {
  locationId = await createPreviewLocation(db);
});

describe("computePreview", () => {
  it("counts each type: valid, warnings, errors, excluded by rule, and all new on a first sync", async () => {
    const run = await runPreview();
    expect(run.status).toBe("succeeded");
    expect(Object.keys(run.counts!).sort()).toEqual(["appointments", "calendars", "contact_details", "openings", "service_categories", "services"]);
    expect(run.counts!.calendars).toMatchObject({ sourceRows: 2, valid: 2, errors: 0, new: 2 });
    expect(run.counts!.services).toMatchObject({ sourceRows: 2, valid: 2, warnings: 1, errors: 0, new: 2 });
    expect(run.counts!.contact_details).toMatchObject({ sourceRows: 3, valid: 2, warnings: 1, errors: 1 });
    expect(run.counts!.appointments).toMatchObject({ sourceRows: 5, valid: 3, warnings: 1, errors: 1, excludedByRule: 1 });
    expect(run.counts!.openings).toMatchObject({ sourceRows: 1, valid: 1 });
    expect(run.progress).toMatchObject({ appointments: { rows: 5, done: true } });
  });

  it("names the first row of a duplicated external_id, a missing customer, and a category no longer sent", async () => {
    await runPreview();
    const issues = await db.select().from(previewIssues).where(eq(previewIssues.locationId, locationId));
    const byCode = (code: string) =>
      issues.filter((issue) => issue.code === code).map(({ recordType, field, reason, original }) => ({ recordType, field, reason, original }));
    expect(byCode("duplicate_external_id")).toEqual([
      { recordType: "contact_details", field: "external_id", reason: "repeats the external_id of source row cu1", original: "cu1" },
    ]);
    expect(byCode("missing_reference")).toEqual([
      {
        recordType: "appointments",
        field: "contact_detail_external_id",
        reason: "names contact ghost, which is missing or excluded",
        original: "ghost",
      },
    ]);
    // The service stays on the menu, without its deleted category; its appointment keeps naming it.
    expect(byCode("dropped_reference")).toEqual([
      {
        recordType: "services",
        field: "service_category_external_id",
        reason: "names service category c-deleted, which is no longer sent: sent without it",
        original: "c-deleted",
      },
    ]);
    const [, sv2] = await recordsOf("services");
    expect(sv2).toMatchObject({ status: "warning", payload: expect.not.objectContaining({ service_category_external_id: expect.anything() }) });
  });

  it("excludes canceled appointments by rule, flags the DST gap, and stores records that pass the upstream schemas", async () => {
    await runPreview();
    const appointments = await recordsOf("appointments");
    expect(appointments.map((row) => [row.sourceId, row.status, row.excludedReason])).toEqual([
      ["a1", "valid", null],
      ["a2", "excluded", "canceled"],
      ["a3", "valid", null],
      ["a4", "error", null],
      ["a5", "warning", null],
    ]);
    const a1 = appointments[0]!;
    expect(a1.payload).toMatchObject({
      external_id: "a1",
      start_at: "2026-03-20T10:00:00Z+01:00",
      contact_detail_external_id: "cu1",
      price_cents: 2500,
    });
    expect(a1.localDate).toBe("2026-03-20");
    expect(appointments[4]!.payload).toMatchObject({ start_at: "2026-03-29T03:30:00Z+02:00" });
    for (const row of appointments.filter((candidate) => candidate.status === "valid" || candidate.status === "warning")) {
      expect(recordSchemas.appointments.safeParse(row.payload).success).toBe(true);
    }
    const [opening] = await recordsOf("openings");
    expect(opening).toMatchObject({
      recordKey: "sv1|s1|2026-03-28T10:00:00Z+01:00",
      refService: "sv1",
      payload: { calendar_external_id: "s1", start_at: "2026-03-28T10:00:00Z+01:00" },
    });
  });

  it("diffs against what was last synced: unchanged, changed, and removed for full-replacement types", async () => {
    const first = await runPreview();
    const [cu1] = (await recordsOf("contact_details")).filter((row) => row.sourceId === "cu1" && row.status !== "error");
    const [cu2] = (await recordsOf("contact_details")).filter((row) => row.sourceId === "cu2");
    await db.insert(syncedRecords).values([
      { locationId, recordType: "contact_details", recordKey: "cu1", contentHash: cu1!.contentHash! },
      { locationId, recordType: "contact_details", recordKey: "cu2", contentHash: "an older hash" },
      { locationId, recordType: "calendars", recordKey: "s-gone", contentHash: "x" },
    ]);
    const second = await runPreview();
    expect(second.counts!.contact_details).toMatchObject({ new: 0, changed: 1, unchanged: 1 });
    expect(second.counts!.calendars).toMatchObject({ new: 2, removed: 1 });
    expect(cu2!.contentHash).not.toBe("an older hash");
    // Only the newest succeeded run is kept: the records are the location's, older runs are not needed.
    expect(await db.select().from(previewRuns).where(eq(previewRuns.id, first.id))).toEqual([]);
    expect(second.mode).toBe("incremental");
  });

  it("reads pages, groups issues by root cause and shows one record's JSON and issues", async () => {
    await runPreview();
    const page = await listPreviewRecords(db, locationId, PreviewQuery.parse({ type: "appointments", sort: "status" }));
    expect(page.total).toBe(5);
    expect(page.items.map((item) => item.sourceId)).toEqual(["a4", "a5", "a2", "a1", "a3"]);
    const errorsOnly = await listPreviewRecords(db, locationId, PreviewQuery.parse({ type: "contact_details", status: "error" }));
    expect(errorsOnly.items.map((item) => item.sourceId)).toEqual(["cu1"]);
    const search = await listPreviewRecords(db, locationId, PreviewQuery.parse({ type: "contact_details", q: "CU2@EXAMPLE" }));
    expect(search.items.map((item) => item.sourceId)).toEqual(["cu2"]);
    const causes = await listRootCauses(db, locationId);
    expect(causes).toContainEqual(
      expect.objectContaining({ id: "missing:contact_details:ghost", effects: [{ type: "appointments", notSent: 1, sentWithWarning: 0 }] }),
    );
    const detail = await getPreviewRecord(db, locationId, "contact_details", 1);
    expect(detail).toMatchObject({ sourceId: "cu2", status: "warning" });
    expect(detail!.issues).toEqual([expect.objectContaining({ severity: "warning", field: "mobile_phone_number" })]);
    expect(detail!.payload).not.toHaveProperty("mobile_phone_number");
  });

  it("sends a visit without the stylist or service that is no longer sent, and puts the references back when they return", async () => {
    await runPreview();
    const before = new Map((await recordsOf("appointments")).map((row) => [row.sourceId, row]));
    const rows = sourceRows();
    rows.staff = rows.staff!.filter((row) => row.id !== "s1");
    rows.services = rows.services!.filter((row) => row.id !== "sv2");
    const second = await runPreview(rows);
    expect(second.mode).toBe("incremental");
    const a3 = (await recordsOf("appointments")).find((row) => row.sourceId === "a3")!;
    expect(a3.status).toBe("warning");
    expect(a3.payload).toEqual(
      Object.fromEntries(
        Object.entries(before.get("a3")!.payload as object).filter(([field]) => field !== "calendar_external_id" && field !== "service_external_id"),
      ),
    );
    expect(a3.contentHash).not.toBe(before.get("a3")!.contentHash);
    expect(recordSchemas.appointments.safeParse(a3.payload).success).toBe(true);
    const issues = await db
      .select()
      .from(previewIssues)
      .where(and(eq(previewIssues.locationId, locationId), eq(previewIssues.code, "dropped_reference")));
    expect(issues.map((issue) => [issue.recordType, issue.field, issue.original]).sort()).toEqual([
      ["appointments", "calendar_external_id", "s1"],
      ["appointments", "calendar_external_id", "s1"],
      ["appointments", "calendar_external_id", "s1"],
      ["appointments", "service_external_id", "sv2"],
      ["services", "calendar_external_ids", "s1"],
    ]);
    const [sv1] = await recordsOf("services");
    expect(sv1!.payload).toMatchObject({ calendar_external_ids: ["s2"] });
    // Openings of a stylist who left are not promoted: nobody can serve them.
    expect((await recordsOf("openings")).map((row) => row.status)).toEqual(["error"]);

    await runPreview(sourceRows());
    const restored = new Map((await recordsOf("appointments")).map((row) => [row.sourceId, row]));
    for (const [sourceId, row] of before) {
      expect({
        sourceId,
        status: restored.get(sourceId)!.status,
        payload: restored.get(sourceId)!.payload,
        hash: restored.get(sourceId)!.contentHash,
      }).toEqual({
        sourceId,
        status: row.status,
        payload: row.payload,
        hash: row.contentHash,
      });
    }
    expect((await recordsOf("services"))[0]!.payload).toMatchObject({ calendar_external_ids: ["s1", "s2"] });
  });

  // The appointments' changed rows are read ahead, while the contacts are written.
  it.each([
    ["customers", "contact_details"],
    ["appointments", "appointments"],
  ] as const)("leaves the records as they were when the source fails reading the changed %s of an incremental run", async (resource, type) => {
    const rows = { ...sourceRows(), customers: ["cu1", "cu2", "cu3", "cu4", "cu5"].map((id) => customer(id)) };
    await runPreview(rows);
    const before = { contacts: await recordsOf("contact_details"), failed: await recordsOf(type) };
    const reader = createArraySourceReader({
      ...rows,
      customers: rows.customers.map((row) => ({ ...row, last_name: "Changed" })),
      appointments: rows.appointments!.map((row) => ({ ...row, price: "99.00" })),
    });
    const read = reader.read.bind(reader);
    reader.read = async function* (readResource, params, options) {
      let batches = 0;
      for await (const batch of read(readResource, params, options)) {
        // The changed rows' read breaks after its second batch.
        if (readResource === resource && options?.filter?.changedSince && ++batches > 2) throw new Error("the source went away");
        yield batch;
      }
    };
    const [run] = await db.insert(previewRuns).values({ locationId }).returning();
    await computePreview(systemContext(testDb.db), { runId: run!.id, reader, now, batchSize: 2 });
    expect((await db.select().from(previewRuns).where(eq(previewRuns.id, run!.id)))[0]).toMatchObject({ status: "failed", mode: "incremental" });
    expect({ contacts: await recordsOf("contact_details"), failed: await recordsOf(type) }).toEqual(before);
  });

  it("leaves nothing reading the source once an incremental run failed, though the next resource was being read ahead", async () => {
    const rows = { ...sourceRows(), appointments: Array.from({ length: 20 }, (_, index) => appointment(`a${index}`, { customer_id: "cu1" })) };
    await runPreview(rows);
    const reader = createArraySourceReader({ ...rows, appointments: rows.appointments.map((row) => ({ ...row, price: "99.00" })) });
    const [read, count] = [reader.read.bind(reader), reader.count.bind(reader)];
    // The customers' count fails once the appointments are being read ahead, slowly.
    reader.count = async (resource, params) => {
      if (resource === "customers") throw new Error("the source went away");
      return count(resource, params);
    };
    let returned = false;
    let readAfterReturn = 0;
    reader.read = async function* (resource, params, options) {
      for await (const batch of read(resource, params, options)) {
        if (resource === "appointments") await new Promise((resolve) => setTimeout(resolve, 30));
        if (returned) readAfterReturn++;
        yield batch;
      }
    };
    const [run] = await db.insert(previewRuns).values({ locationId }).returning();
    await computePreview(systemContext(testDb.db), { runId: run!.id, reader, now, batchSize: 2 });
    returned = true;
    expect((await db.select().from(previewRuns).where(eq(previewRuns.id, run!.id)))[0]).toMatchObject({ status: "failed", mode: "incremental" });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readAfterReturn).toBe(0);
  });

  it("keeps a changed record where it was among the location's records; a new one goes last", async () => {
    const unchanged = new Date("2020-01-01T00:00:00Z");
    const rows = { ...sourceRows(), customers: ["cu1", "cu2", "cu3", "cu4"].map((id) => customer(id, { updated_at: unchanged })) };
    await runPreview(rows);
    const before = (await recordsOf("contact_details")).map((record) => record.sourceId);
    const changedAt = new Date(Date.now() + 60_000);
    rows.customers = [
      ...rows.customers.map((row) => (row.id === "cu2" ? { ...row, last_name: "Changed", updated_at: changedAt } : row)),
      customer("cu0", { updated_at: changedAt }),
    ];
    expect(await runPreview(rows)).toMatchObject({ status: "succeeded", mode: "incremental" });
    const after = await recordsOf("contact_details");
    expect(after.map((record) => record.sourceId)).toEqual([...before, "cu0"]);
    expect(after.find((record) => record.sourceId === "cu2")!.payload).toMatchObject({ last_name: "Changed" });
  });

  it("fails with a plain message when the location has no source key", async () => {
    await db.update(locations).set({ sourceKey: null }).where(eq(locations.id, locationId));
    const run = await runPreview();
    expect(run).toMatchObject({ status: "failed", error: expect.stringContaining("no source key") });
  });

  it("goes with its location: deleting the location deletes its records and issues", async () => {
    await runPreview();
    await db.delete(locations).where(eq(locations.id, locationId));
    expect(await db.select().from(previewRecords).where(eq(previewRecords.locationId, locationId))).toEqual([]);
    expect(await db.select().from(previewIssues).where(eq(previewIssues.locationId, locationId))).toEqual([]);
  });

  it("leaves no spool on disk after a first run, whether it succeeded or failed, and removes one a killed worker left a day ago", async () => {
    const previous = process.env.TMPDIR;
    const scratch = await mkdtemp(path.join(os.tmpdir(), "spool-test-"));
    process.env.TMPDIR = scratch;
    try {
      const abandoned = path.join(scratch, "location-sync-preview-killed");
      await mkdir(abandoned);
      await writeFile(path.join(abandoned, "sent.copy"), "rows of a run that never ended\n");
      const dayAndMinuteAgo = new Date(Date.now() - 24 * 60 * 60 * 1000 - 60_000);
      await utimes(path.join(abandoned, "sent.copy"), dayAndMinuteAgo, dayAndMinuteAgo);
      await utimes(abandoned, dayAndMinuteAgo, dayAndMinuteAgo);
      const recent = path.join(scratch, "location-sync-preview-running");
      await mkdir(recent);
      expect((await runPreview()).status).toBe("succeeded");
      expect(await readdir(scratch)).toEqual(["location-sync-preview-running"]);
      await db.delete(previewRuns).where(eq(previewRuns.locationId, locationId));
      const reader = createArraySourceReader(sourceRows());
      reader.read = async function* () {
        yield* [];
        throw new Error("the source went away");
      };
      const [run] = await db.insert(previewRuns).values({ locationId }).returning();
      await computePreview(systemContext(testDb.db), { runId: run!.id, reader, now, batchSize: 2 });
      expect(await readdir(scratch)).toEqual(["location-sync-preview-running"]);
    } finally {
      // process.env turns undefined into the string "undefined".
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it("keeps nothing of a first run whose read failed part-way through, also the types it had read before", async () => {
    const reader = createArraySourceReader(sourceRows());
    const read = reader.read.bind(reader);
    reader.read = async function* (resource, params, options) {
      let batches = 0;
      for await (const batch of read(resource, params, options)) {
        if (resource === "appointments" && batches === 2) throw new Error("the source went away");
        batches += 1;
        yield batch;
      }
    };
    const [run] = await db.insert(previewRuns).values({ locationId }).returning();
    await computePreview(systemContext(testDb.db), { runId: run!.id, reader, now, batchSize: 2 });
    const [done] = await db.select().from(previewRuns).where(eq(previewRuns.id, run!.id));
    expect(done!.status).toBe("failed");
    expect(await db.select().from(previewRecords).where(eq(previewRecords.locationId, locationId))).toEqual([]);
    expect(await db.select().from(previewIssues).where(eq(previewIssues.locationId, locationId))).toEqual([]);
  });

  // The bench's case: the first preview after a first sync, whose counts are made as the records stream.
  it("counts a first run as it streams, against what the upstream accepted, as its stored records count", async () => {
    await runPreview();
    const [cu1] = (await recordsOf("contact_details")).filter((row) => row.sourceId === "cu1" && row.status !== "error");
    const [a1] = await recordsOf("appointments");
    await db.insert(syncedRecords).values([
      { locationId, recordType: "contact_details", recordKey: "cu1", contentHash: cu1!.contentHash! },
      // Unsubscribed when they left, now back: sent again in full (changed), not counted as held.
      { locationId, recordType: "contact_details", recordKey: "cu2", contentHash: "unsubscribed" },
      { locationId, recordType: "contact_details", recordKey: "cu-left", contentHash: "sent" },
      { locationId, recordType: "contact_details", recordKey: "cu-unsubscribed", contentHash: "unsubscribed" },
      { locationId, recordType: "appointments", recordKey: "a1", contentHash: a1!.contentHash!, appointmentDate: "2026-03-20" },
      { locationId, recordType: "appointments", recordKey: "a2", contentHash: "canceled since", appointmentDate: "2026-03-20" },
      { locationId, recordType: "calendars", recordKey: "s-gone", contentHash: "x" },
    ]);
    // No run succeeded yet: the next one is a location's first again.
    await db.delete(previewRuns).where(eq(previewRuns.locationId, locationId));
    const run = await runPreview();
    expect(run).toMatchObject({ status: "succeeded", mode: "full" });
    expect(run.checkedAt!.getTime()).toBeLessThanOrEqual(run.finishedAt!.getTime());
    expect(run.counts!.contact_details).toMatchObject({ sourceRows: 3, new: 0, changed: 1, unchanged: 1, removed: 1 });
    expect(run.counts!.appointments).toMatchObject({ sourceRows: 5, unchanged: 1, removed: 1 });
    expect(run.counts!.calendars).toMatchObject({ new: 2, removed: 1 });
    expect(run.counts).toEqual(await countPreview(db, locationId, Object.keys(run.counts!) as PreviewRecordType[]));
    // Every record is stored for browsing, in the source's order, those without issues after the counts.
    expect((await recordsOf("appointments")).map((record) => record.sourceId)).toEqual(["a1", "a2", "a3", "a4", "a5"]);
    expect((await recordsOf("contact_details")).map((record) => record.seq)).toEqual([0, 1, 2]);
  });

  it("writes no records for a location deleted while its first preview is read", async () => {
    const reader = createArraySourceReader(sourceRows());
    const read = reader.read.bind(reader);
    reader.read = async function* (resource, params, options) {
      // Calendars, categories, services and contacts are written (each type commits on its own) before this.
      if (resource === "appointments") await db.delete(locations).where(eq(locations.id, locationId));
      yield* read(resource, params, options);
    };
    const [run] = await db.insert(previewRuns).values({ locationId }).returning();
    await computePreview(systemContext(testDb.db), { runId: run!.id, reader, now, batchSize: 2 });
    expect(await db.select().from(previewRecords).where(eq(previewRecords.locationId, locationId))).toEqual([]);
  });
});

import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { previewIssues, previewRecords, previewRuns, syncedRecords } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemContext } from "@/lib/operations/context";
import { referenceRules } from "@/lib/pipeline/reference-rules";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment, sourceCustomer } from "@/lib/source/testing/source-row-factories";
import { computePreview } from "./compute-preview";
import { runChecks } from "./cross-check-preview";
import { PreviewQuery } from "./preview-inputs";
import { listPreviewPage } from "./read-preview";
import { readPreviewRecord } from "./read-preview-record";
import { rootCauseIdOf, rootCauseOriginOf } from "./root-cause-id";
import { listOpeningsCalendar } from "./openings-calendar";
import { listRootCauses } from "./root-causes";
import { createPreviewLocation } from "./testing/preview-location";

const testDb = await useTestDatabase();
const { db } = testDb;
const now = new Date("2026-03-27T09:00:00Z");

// A deleted category (its service is sent without it), a deleted service (its appointments are sent without it, its
// openings not at all), a deleted customer (their appointment is not sent), and two invalid phone numbers.
function sourceRows(): SourceRows {
  return {
    staff: [{ id: "s1", first_name: "Jonas", last_name: "Berg", display_name: null }],
    service_categories: [{ id: "c1", name: "Hair", position: 1 }],
    services: [
      { id: "sv1", name: "Cut", description: null, bookable: true, price: "25.00", category_id: "c1", staff_ids: ["s1"], position: 1 },
      { id: "sv2", name: "Colour", description: null, bookable: true, price: "40", category_id: "c-deleted", staff_ids: ["s1"], position: 2 },
    ],
    customers: [
      sourceCustomer("cu1", { first_name: "Mia", last_name: "Wolf" }),
      sourceCustomer("cu2", { phone: "n/a" }),
      sourceCustomer("cu3", { phone: "12" }),
    ],
    appointments: [
      sourceAppointment("a1", "2026-03-20", { status: "completed" }),
      sourceAppointment("a2", "2026-03-21", { service_id: "sv-gone", status: "completed" }),
      sourceAppointment("a3", "2026-03-22", { service_id: "sv-gone", status: "completed" }),
      sourceAppointment("a4", "2026-03-23", { customer_id: "cu-gone", status: "completed" }),
    ],
    availability: [
      { staff_id: "s1", service_id: "sv1", starts_at: "2026-03-28 10:00:00" },
      { staff_id: "s1", service_id: "sv-gone", starts_at: "2026-03-28 11:00:00" },
      { staff_id: "s1", service_id: "sv-gone", starts_at: "2026-03-28 12:00:00" },
    ],
  };
}

let locationId: string;
let reader: ReturnType<typeof createArraySourceReader>;

beforeEach(async () => {
  locationId = await createPreviewLocation(db);
  reader = createArraySourceReader(sourceRows());
  const [run] = await db.insert(previewRuns).values({ locationId }).returning();
  await computePreview(systemContext(db), { runId: run!.id, reader, now, batchSize: 2 });
  const [done] = await db.select().from(previewRuns).where(eq(previewRuns.id, run!.id));
  expect(done!.status).toBe("succeeded");
});

const page = (query: Record<string, unknown>) => listPreviewPage(db, locationId, PreviewQuery.parse(query));
const keysOf = async (query: Record<string, unknown>) => (await page(query)).items.map((item) => item.sourceId);

describe("listRootCauses", () => {
  it("groups each record's issues under the record it names, with what that holds back of every type", async () => {
    const causes = await listRootCauses(db, locationId);
    const summary = causes.map((cause) => ({ id: cause.id, severity: cause.severity, effects: cause.effects, total: cause.total }));
    expect(summary).toEqual([
      {
        id: "missing:services:sv-gone",
        severity: "error",
        effects: [
          { type: "appointments", notSent: 0, sentWithWarning: 2 },
          { type: "openings", notSent: 2, sentWithWarning: 0 },
        ],
        total: 4,
      },
      {
        id: "missing:contact_details:cu-gone",
        severity: "error",
        effects: [{ type: "appointments", notSent: 1, sentWithWarning: 0 }],
        total: 1,
      },
      {
        id: "issue:contact_details:warning:mobile_phone_number:invalid_phone",
        severity: "warning",
        effects: [{ type: "contact_details", notSent: 0, sentWithWarning: 2 }],
        total: 2,
      },
      {
        id: "missing:service_categories:c-deleted",
        severity: "warning",
        effects: [{ type: "services", notSent: 0, sentWithWarning: 1 }],
        total: 1,
      },
    ]);
  });

  it("filters the records to those a cause holds back, type by type", async () => {
    const service = "missing:services:sv-gone";
    expect(await keysOf({ type: "appointments", cause: service })).toEqual(["a2", "a3"]);
    expect(await keysOf({ type: "openings", cause: service })).toEqual(["s1|sv-gone|2026-03-28 11:00:00", "s1|sv-gone|2026-03-28 12:00:00"]);
    expect(await keysOf({ type: "services", cause: service })).toEqual([]);
    expect(await keysOf({ type: "appointments", cause: "missing:contact_details:cu-gone" })).toEqual(["a4"]);
    expect(await keysOf({ type: "contact_details", cause: "issue:contact_details:warning:mobile_phone_number:invalid_phone" })).toEqual([
      "cu2",
      "cu3",
    ]);
    expect(await keysOf({ type: "services", cause: "missing:service_categories:c-deleted", status: "warning" })).toEqual(["sv2"]);
  });

  it("traces the dependants of a record that is an error of its own to that error, each counted once", async () => {
    // No mapping rule today makes a service an error while keeping its key; one that did would be traced like this.
    const [sv1] = await db
      .update(previewRecords)
      .set({ status: "error", issueCount: 1 })
      .where(and(eq(previewRecords.locationId, locationId), eq(previewRecords.recordType, "services"), eq(previewRecords.recordKey, "sv1")))
      .returning();
    await db.insert(previewIssues).values({
      locationId,
      recordType: "services",
      seq: sv1!.seq,
      severity: "error",
      field: "price_cents",
      code: "invalid_record",
      reason: "does not match the upstream schema",
    });
    await runChecks(db, locationId, "all");
    const cause = (await listRootCauses(db, locationId)).find((candidate) => candidate.id === "issue:services:error:price_cents:invalid_record");
    expect(cause).toMatchObject({
      severity: "error",
      effects: [
        { type: "services", notSent: 1, sentWithWarning: 0 },
        { type: "appointments", notSent: 0, sentWithWarning: 1 },
        { type: "openings", notSent: 1, sentWithWarning: 0 },
      ],
      total: 3,
    });
    expect(await keysOf({ type: "services", cause: cause!.id })).toEqual(["sv1"]);
    expect(await keysOf({ type: "appointments", cause: cause!.id })).toEqual(["a1"]);
    expect(await keysOf({ type: "openings", cause: cause!.id })).toEqual(["s1|sv1|2026-03-28 10:00:00"]);
  });

  it("refuses a cause value that names no cause (a 422 at the API)", () => {
    expect(PreviewQuery.safeParse({ cause: "missing:nonsense:x" }).success).toBe(false);
    expect(PreviewQuery.safeParse({ cause: "issue:contact_details:warning" }).success).toBe(false);
  });

  it("names a cause in one URL value and reads it back, whatever its key holds", () => {
    const origin = { kind: "missing", type: "services", key: "a:b/c %" } as const;
    expect(rootCauseOriginOf(rootCauseIdOf(origin))).toEqual(origin);
  });

  it("holds its one-step chains: no record a reference can make an error is named by another record", () => {
    // listRootCauses attributes a reference issue to its target's own issues; were a target able to fail through a
    // reference itself, the chain would need following further.
    const failingThroughReference = new Set(referenceRules.filter((rule) => rule.onMissing === "error").map((rule) => rule.type));
    expect(referenceRules.filter((rule) => failingThroughReference.has(rule.target))).toEqual([]);
  });
});

describe("labels and the side panel", () => {
  it("labels an appointment with its customer, service and staff names and its start as an instant", async () => {
    const [a1] = (await page({ type: "appointments" })).items;
    expect(a1!.label).toEqual({ title: "Mia Wolf", detail: "Cut · with Jonas Berg", startsAt: "2026-03-20T09:00:00.000Z" });
    const [opening] = (await page({ type: "openings" })).items;
    expect(opening!.label).toEqual({ title: "Cut", detail: "with Jonas Berg", startsAt: "2026-03-28T09:00:00.000Z" });
  });

  it("reads the source row of a record beside what was mapped from it", async () => {
    const [, a2] = (await page({ type: "appointments" })).items;
    const detail = await readPreviewRecord({ ...systemContext(db), reader }, { locationId, type: "appointments", seq: a2!.seq });
    expect(detail.sourceRows).toEqual([expect.objectContaining({ id: "a2", service_id: "sv-gone" })]);
    expect(detail.record.payload).not.toHaveProperty("service_external_id");
    expect(detail.record.issues).toEqual([expect.objectContaining({ code: "dropped_reference", original: "sv-gone" })]);

    const openings = (await page({ type: "openings" })).items;
    const slot = await readPreviewRecord({ ...systemContext(db), reader }, { locationId, type: "openings", seq: openings[1]!.seq });
    expect(slot.sourceRows).toEqual([{ staff_id: "s1", service_id: "sv-gone", starts_at: "2026-03-28 11:00:00" }]);
  });
});

describe("openings calendar", () => {
  it("lays each service's openings out by local day and time, with the staff and whether each is sent", async () => {
    const { services, truncated } = await listOpeningsCalendar(db, locationId);
    expect(truncated).toBe(false);
    expect(
      services.map(({ serviceName, days, times, slots }) => ({ serviceName, days, times, slots: slots.map(({ seq: _seq, ...slot }) => slot) })),
    ).toEqual([
      {
        serviceName: "Cut",
        days: ["2026-03-28"],
        times: ["10:00"],
        slots: [{ day: "2026-03-28", time: "10:00", calendar: "Jonas Berg", status: "valid" }],
      },
      {
        serviceName: "sv-gone",
        days: ["2026-03-28"],
        times: ["11:00", "12:00"],
        slots: [
          { day: "2026-03-28", time: "11:00", calendar: "Jonas Berg", status: "error" },
          { day: "2026-03-28", time: "12:00", calendar: "Jonas Berg", status: "error" },
        ],
      },
    ]);
  });
});

describe("removed records", () => {
  it("lists what the upstream holds that the source no longer sends, and not what it still sends", async () => {
    await db.insert(syncedRecords).values([
      { locationId, recordType: "services", recordKey: "sv1", contentHash: "old" },
      { locationId, recordType: "services", recordKey: "sv-old", contentHash: "x" },
      { locationId, recordType: "appointments", recordKey: "a4", contentHash: "x" },
      { locationId, recordType: "appointments", recordKey: "a-deleted", contentHash: "x" },
      { locationId, recordType: "contact_details", recordKey: "cu-left", contentHash: "x" },
      { locationId, recordType: "contact_details", recordKey: "cu-unsubscribed", contentHash: "unsubscribed" },
    ]);
    const services = await page({ type: "services", status: "removed" });
    expect(services).toMatchObject({ items: [], total: 1, removed: [{ recordKey: "sv-old", inSource: null }] });
    // a4 is still in the source, but is not sent (it names a deleted customer): the upstream's copy goes.
    const appointments = await page({ type: "appointments", status: "removed" });
    expect(appointments.removed!.map((record) => [record.recordKey, record.inSource?.status ?? null])).toEqual([
      ["a-deleted", null],
      ["a4", "error"],
    ]);
    expect((await page({ type: "contact_details", status: "removed" })).removed!.map((record) => record.recordKey)).toEqual(["cu-left"]);
    expect((await page({ type: "appointments", status: "removed", q: "DELETED" })).total).toBe(1);
  });
});

import { asc, eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { previewRuns, syncStepItems, syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { planPreviewReads } from "@/lib/preview/preview-plan";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { createSqlSourceReader } from "@/lib/source/sql-source-reader";
import type { SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment } from "@/lib/source/testing/source-row-factories";
import { expectedUpstream, upstreamOf } from "./testing/expected-upstream";
import { sampleNow, sampleSourceRows as initialRows } from "./testing/sample-source";
import { compareType, openingsInAnyOrder } from "./testing/sync-assertions";
import { createConnectedLocation, runManualTestSync, sandboxRequests, useSyncSandbox } from "./testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);

async function sync(locationId: string, rows: SourceRows) {
  const session = await runManualTestSync(testDb.db, locationId, rows);
  const steps = await db.select().from(syncSteps).where(eq(syncSteps.sessionId, session.id));
  const items = async (name: string) =>
    db
      .select()
      .from(syncStepItems)
      .where(eq(syncStepItems.stepId, steps.find((step) => step.name === name)!.id))
      .orderBy(asc(syncStepItems.position));
  return { session, items };
}

describe("an incremental sync", () => {
  it("sends the changed contacts, only the touched date ranges and only the services whose openings changed", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = initialRows();
    const first = await sync(location.id, rows);
    expect((await first.items("appointments")).map((item) => item.key)).toEqual([
      "2026-02-05..2026-02-28",
      "2026-03-01..2026-03-31",
      "2026-04-01..2026-04-30",
      "2026-05-01..2026-05-31",
      "2026-06-01..2026-06-30",
      "2026-07-01..2026-07-31",
      "2026-08-01..2026-08-31",
      "2026-09-01..2026-09-10",
    ]);
    const requestsBefore = (await sandboxRequests(db, location.upstreamLocationId)).length;

    // Edit a customer, move an appointment, cancel one, delete one; one service has no openings any more.
    rows.customers = rows.customers!.map((row) => (row.id === "cu2" ? { ...row, first_name: "Berta" } : row));
    rows.appointments = rows
      .appointments!.filter((row) => row.id !== "a5")
      .map((row) =>
        row.id === "a3"
          ? { ...row, starts_at: "2026-03-15 09:00:00", ends_at: "2026-03-15 09:30:00" }
          : row.id === "a4"
            ? { ...row, status: "Canceled" }
            : row,
      );
    rows.availability = rows.availability!.filter((row) => row.service_id !== "sv2");
    const second = await sync(location.id, rows);

    const contactItems = await second.items("contact_details");
    expect(contactItems.map((item) => [item.key.split(" ")[0], item.recordsSent])).toEqual([["changed", 1]]);
    // Touched: 12 March (a3's old date), 15 March (its new one), 20 March (a5 deleted), 1 April (a4 canceled). The first
    // two are two untouched days apart: one import carries both (and every valid appointment between them).
    expect((await second.items("appointments")).map((item) => [item.key, item.recordsSent])).toEqual([
      ["2026-03-12..2026-03-15", 1],
      ["2026-03-20..2026-03-20", 0],
      ["2026-04-01..2026-04-01", 0],
    ]);
    // sv1's openings are what the upstream holds: not sent again. sv2 has none any more: emptied.
    expect((await second.items("openings")).map((item) => [item.key, item.recordsSent])).toEqual([["service sv2", 0]]);
    const upload = (endpoint: string) => [`POST ${endpoint} 200`, "PUT upload 200"];
    expect(openingsInAnyOrder((await sandboxRequests(db, location.upstreamLocationId)).slice(requestsBefore))).toEqual(
      openingsInAnyOrder([
        "PUT update_management_system 200",
        "POST batch_sync_calendars 200",
        "POST batch_sync_service_categories 200",
        "POST batch_sync_services 200",
        ...upload("contact_details"),
        ...[1, 2, 3].flatMap(() => upload("batch_sync_appointments")),
        ...upload("batch_sync_openings"),
        "PUT update_management_system 200",
      ]),
    );

    for (const type of ["contact_details", "appointments", "openings", "services"] as const) {
      const compared = await compareType(db, { locationId: location.id, upstreamLocationId: location.upstreamLocationId, type, rows });
      expect(compared.stored, type).toEqual(compared.expected);
      expect(compared.syncedKeys, type).toEqual(Object.keys(compared.expected).sort());
    }
    const contacts = await compareType(db, {
      locationId: location.id,
      upstreamLocationId: location.upstreamLocationId,
      type: "contact_details",
      rows,
    });
    expect((contacts.stored.cu2 as { first_name: string }).first_name).toBe("Berta");
  });

  it("makes at most six appointment imports for changes scattered over a year, each carrying every valid appointment of its range", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = initialRows();
    const today = DateTime.fromJSDate(sampleNow, { zone: "Europe/Berlin" });
    // 120 more appointments, one every third day from eight months ago to four months ahead.
    const spread = Array.from({ length: 120 }, (_, index) => {
      const day = today.plus({ days: -240 + index * 3 });
      return sourceAppointment(`s${index}`, day.toISODate()!, { customer_id: `cu${(index % 4) + 1}`, status: day < today ? "completed" : "booked" });
    });
    rows.appointments = [...rows.appointments!, ...spread];
    await sync(location.id, rows);

    // Every fourth one repriced, one moved by a day, one canceled: 33 touched dates across the year, 32 imports without merging.
    rows.appointments = rows.appointments.map((row) => {
      const index = row.id.startsWith("s") ? Number(row.id.slice(1)) : -1;
      if (index === 5)
        return { ...row, starts_at: row.starts_at!.replace(/^(\d{4}-\d{2}-\d{2})/, (date) => DateTime.fromISO(date).plus({ days: 1 }).toISODate()!) };
      if (index === 7) return { ...row, status: "Canceled" };
      return index >= 0 && index % 4 === 0 ? { ...row, price: "30.00" } : row;
    });
    const second = await sync(location.id, rows);
    const items = await second.items("appointments");
    expect(items.length).toBeGreaterThan(1);
    expect(items.length).toBeLessThanOrEqual(6);
    // More records than changed, fewer than all: the ranges take in unchanged appointments between touched dates.
    const sent = items.reduce((sum, item) => sum + item.recordsSent, 0);
    expect(sent).toBeGreaterThan(33);
    expect(sent).toBeLessThan(rows.appointments.length);

    const compared = await compareType(db, { locationId: location.id, upstreamLocationId: location.upstreamLocationId, type: "appointments", rows });
    expect(compared.stored).toEqual(compared.expected);
    expect(compared.syncedKeys).toEqual(Object.keys(compared.expected).sort());
    expect((compared.stored.s0 as { price_cents: number }).price_cents).toBe(3000);
    expect(compared.stored.s7).toBeUndefined();
  });
});

describe("an incremental sync of a SQL source", () => {
  it("unsubscribes deleted customers when customers whose number another row repeats padded with a tab or NBSP were edited", async () => {
    const [sourceKey] = await generateDemoSource(db, {
      locations: 1,
      contacts: 30,
      years: 1,
      seed: 21,
      today: "2026-03-10",
      sourceKeys: ["twin-ids"],
    });
    const reader = createSqlSourceReader({ url: testDb.url });
    try {
      const location = await createConnectedLocation(db, setup, { sourceKey });
      const [edited, paddedEdited, deleted, alsoDeleted] = await testDb.sql<{ id: number; customer_no: string }[]>`
        select id, customer_no from demo_source.customers c where source_key = ${sourceKey!} and customer_no = btrim(customer_no)
          and (select count(*) from demo_source.customers d where d.source_key = c.source_key and d.customer_no = c.customer_no) = 1
        order by id limit 4`;
      // Subscribed to email, so that deleting them shows upstream (they are unsubscribed).
      await testDb.sql`update demo_source.customers set email = 'deleted-' || id || '@example.com', email_opt_in = true
        where id in ${testDb.sql([deleted!.id, alsoDeleted!.id])}`;
      // Each twin is entered after the row it repeats (the first row of a number is the one sent), its number padded
      // with white space the mapping trims but SQL's plain btrim() does not.
      for (const [row, padded] of [
        [edited!, `${edited!.customer_no}\t`],
        [paddedEdited!, `\u00a0${paddedEdited!.customer_no}`],
      ] as const)
        await testDb.sql`insert into demo_source.customers (source_key, customer_no, first_name, last_name, email, email_opt_in, sms_opt_in, phone, updated_at)
          select source_key, ${padded}, first_name, last_name, email, email_opt_in, sms_opt_in, phone, updated_at from demo_source.customers where id = ${row.id}`;
      const sync = async () => {
        const session = await runManualTestSync(testDb.db, location.id, reader, { config: { removalThresholdPercent: 100 } });
        const [run] = session.previewRunId ? await db.select().from(previewRuns).where(eq(previewRuns.id, session.previewRunId)) : [];
        return run?.mode ?? null;
      };
      await sync();
      const before = await upstreamOf(db, location.upstreamLocationId);
      for (const gone of [deleted!, alsoDeleted!]) expect(before.contact_details[gone.customer_no]).toMatchObject({ email_subscribed: true });

      // Two edits and two deletions: the source has as many customer rows less as the edits' twins, if not re-read, would leave.
      await testDb.sql`update demo_source.customers set first_name = 'Edited', updated_at = now() where id in ${testDb.sql([edited!.id, paddedEdited!.id])}`;
      await testDb.sql`delete from demo_source.customers where id in ${testDb.sql([deleted!.id, alsoDeleted!.id])}`;
      expect(await sync()).toBe("incremental");

      const rows: SourceRows = {};
      for (const read of planPreviewReads(location, sampleNow)) {
        const collected: unknown[] = [];
        for await (const batch of reader.read(read.resource, { sourceKey: sourceKey!, windowStart: read.windowStart, windowEnd: read.windowEnd }))
          collected.push(...batch);
        (rows as Record<string, unknown[]>)[read.resource] = collected;
      }
      const context = { timeZone: location.timeZone, country: location.country, dateTimeStyle: "spec" as const, now: sampleNow };
      const after = await upstreamOf(db, location.upstreamLocationId);
      for (const gone of [deleted!, alsoDeleted!])
        expect(after.contact_details[gone.customer_no]).toMatchObject({ email_subscribed: false, text_message_subscribed: false });
      expect(after.contact_details[edited!.customer_no]).toMatchObject({ first_name: "Edited" });
      expect(after).toEqual(expectedUpstream(before, rows, context));
    } finally {
      await reader.close();
    }
  });
});

import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { locations, previewIssues, previewRecords, previewRuns } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { queryRows } from "@/db/raw-sql";
import { systemContext } from "@/lib/operations/context";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import type { SourceReader } from "@/lib/source/source-reader";
import { createSqlSourceReader } from "@/lib/source/sql-source-reader";
import { computePreview } from "./compute-preview";

const testDb = await useTestDatabase();
const { db } = testDb;
const reader = createSqlSourceReader({ url: testDb.url });
afterAll(() => reader.close());

const [sourceKey] = await generateDemoSource(db, { locations: 1, contacts: 30, years: 1, seed: 11 });

/** A new customer, and a visit of theirs, added to the source (committed) the moment the run starts reading appointments. */
function addingAVisitMidRun(base: SourceReader): SourceReader {
  let added = false;
  const add = async () => {
    if (added) return;
    added = true;
    await db.execute(sql`insert into demo_source.customers (source_key, customer_no, last_name) values (${sourceKey!}, 'mid-run', 'Neu')`);
    await db.execute(sql`insert into demo_source.appointments (source_key, id, customer_no, service_id, staff_id, starts_at, ends_at, price, status)
      select source_key, 999999, 'mid-run', service_id, staff_id, starts_at, ends_at, price, 'booked'
      from demo_source.appointments where source_key = ${sourceKey!} order by id limit 1`);
  };
  const wrap = (inner: SourceReader): SourceReader => ({
    ...inner,
    read(resource, params, options) {
      if (resource !== "appointments") return inner.read(resource, params, options);
      return (async function* () {
        await add();
        yield* inner.read(resource, params, options);
      })() as never;
    },
    stoppedBy: inner.stoppedBy && ((signal) => wrap(inner.stoppedBy!(signal))),
    snapshot:
      inner.snapshot &&
      (async () => {
        const snapshot = await inner.snapshot!();
        return { reader: wrap(snapshot.reader), release: snapshot.release };
      }),
  });
  return wrap(base);
}

async function run(locationId: string, source: SourceReader, rebuild = false) {
  const [created] = await db.insert(previewRuns).values({ locationId, requestedByEmail: null, rebuild }).returning();
  await computePreview(systemContext(db), { runId: created!.id, reader: source });
  const [done] = await db.select().from(previewRuns).where(eq(previewRuns.id, created!.id));
  expect(done).toMatchObject({ status: "succeeded" });
}

const recordOf = (locationId: string, type: string, key: string) =>
  db
    .select({ status: previewRecords.status })
    .from(previewRecords)
    .where(and(eq(previewRecords.locationId, locationId), eq(previewRecords.recordType, type), eq(previewRecords.recordKey, key)));

describe("a preview run", () => {
  it("reads one moment of the source: a customer and their visit added while it reads are in neither part, then both", async () => {
    const [location] = await db.insert(locations).values({ name: "Steady Salon", timeZone: "Europe/Berlin", country: "DE", sourceKey }).returning();
    await run(location!.id, addingAVisitMidRun(reader));
    // Not the visit alone, as an error naming a customer the run never saw.
    expect(await recordOf(location!.id, "appointments", "999999")).toEqual([]);
    expect(await recordOf(location!.id, "contact_details", "mid-run")).toEqual([]);
    const issues = await db.select().from(previewIssues).where(eq(previewIssues.locationId, location!.id));
    expect(issues.filter((issue) => issue.original === "mid-run")).toEqual([]);

    // The next run reads both.
    await run(location!.id, reader, true);
    expect(await recordOf(location!.id, "contact_details", "mid-run")).toEqual([{ status: "valid" }]);
    expect(await recordOf(location!.id, "appointments", "999999")).toEqual([{ status: expect.stringMatching(/^(valid|warning)$/) }]);
  });

  it("lets go of the source's snapshot before it vacuums what a full run wrote, so that its pages end all-visible", async () => {
    // The demo source shares the database: a snapshot still held would keep the run's rows from being visible to all.
    const [location] = await db.insert(locations).values({ name: "Vacuumed Salon", timeZone: "Europe/Berlin", country: "DE", sourceKey }).returning();
    const [created] = await db.insert(previewRuns).values({ locationId: location!.id, requestedByEmail: null }).returning();
    await computePreview(systemContext(db), { runId: created!.id, reader, vacuumThreshold: 1 });
    const [done] = await db.select().from(previewRuns).where(eq(previewRuns.id, created!.id));
    expect(done).toMatchObject({ status: "succeeded", mode: "full" });

    await db.execute(sql`create extension if not exists pg_visibility`);
    const [pages] = await queryRows<{ pages: number; not_all_visible: number }>(
      db,
      sql`select count(*)::int as pages, count(*) filter (where not v.all_visible)::int as not_all_visible
          from (select distinct (ctid::text::point)[0]::bigint as block from preview_records where location_id = ${location!.id}) written
          cross join lateral pg_visibility_map('preview_records', written.block) v`,
    );
    expect(pages!.pages).toBeGreaterThan(0);
    expect(pages!.not_all_visible).toBe(0);
  });
});

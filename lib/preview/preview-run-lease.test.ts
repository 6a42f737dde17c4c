import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { locations, previewRuns } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemContext } from "@/lib/operations/context";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { createSqlSourceReader } from "@/lib/source/sql-source-reader";
import { computePreview } from "./compute-preview";
import { mappingBasisOf } from "./mapping-basis";
import { failStoppedPreviewRuns } from "./preview-run-lease";
import { PreviewQuery } from "./preview-inputs";
import { getPreviewRuns, listPreviewRecords } from "./read-preview";

const testDb = await useTestDatabase();
const { db } = testDb;
const reader = createSqlSourceReader({ url: testDb.url });
afterAll(async () => {
  await reader.close();
});

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; !(await condition()); tries++) {
    if (tries > 600) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function computeNewRun(locationId: string, options: Partial<Parameters<typeof computePreview>[1]> = {}) {
  const [run] = await db.insert(previewRuns).values({ locationId }).returning();
  return { runId: run!.id, computed: computePreview(systemContext(db), { runId: run!.id, reader, ...options }) };
}

const contactsNamed = async (locationId: string, name: string) =>
  (await listPreviewRecords(db, locationId, PreviewQuery.parse({ type: "contact_details", q: name }))).total;

describe("a preview run failed by another process while it was still computing", () => {
  it("writes none of its results: the location keeps the records of the run before, and the next run applies the change", async () => {
    const [sourceKey] = await generateDemoSource(db, { locations: 1, contacts: 20, years: 1, seed: 41, sourceKeys: ["lost-run"] });
    const [location] = await db.insert(locations).values({ name: "Lost Salon", timeZone: "Europe/Berlin", country: "DE", sourceKey }).returning();
    const first = await computeNewRun(location!.id);
    await first.computed;
    await testDb.sql`update demo_source.customers set first_name = 'Zebedee', updated_at = now()
      where source_key = ${sourceKey!} and id = (select min(id) from demo_source.customers where source_key = ${sourceKey!})`;

    // An incremental run (its fingerprint and basis observed before, as a session's are) stalls on the appointments,
    // inside the transaction that changes the location's records.
    const observed = { fingerprint: await reader.fingerprint(sourceKey!), mappingBasis: await mappingBasisOf(location!, reader) };
    const connection = await testDb.sql.reserve();
    await connection.unsafe("begin");
    await connection.unsafe("lock table demo_source.appointments in access exclusive mode");
    let stalled: Awaited<ReturnType<typeof computeNewRun>>;
    try {
      stalled = await computeNewRun(location!.id, { observed, leaseSeconds: 60 });
      await waitFor(async () => {
        const [waiting] = await testDb.sql`select 1 from pg_stat_activity
          where application_name = 'location-sync-source' and wait_event_type = 'Lock' and query like '%demo_source.appointments%'`;
        return Boolean(waiting);
      });
      // Its process stalled past its lease (a paused VM, a long pause): another process finds the lease expired and fails it.
      await db
        .update(previewRuns)
        .set({ leaseExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(previewRuns.id, stalled.runId));
      expect(await failStoppedPreviewRuns(db, location!.id)).toBe(1);
    } finally {
      await connection.unsafe("rollback");
      connection.release();
    }
    await stalled.computed;

    const runs = await getPreviewRuns(db, location!.id);
    expect(runs.shown!.id).toBe(first.runId);
    expect(runs.lastFailed).toMatchObject({ id: stalled.runId, error: "The process computing it stopped." });
    expect(await contactsNamed(location!.id, "zebedee")).toBe(0);

    const next = await computeNewRun(location!.id);
    await next.computed;
    expect((await getPreviewRuns(db, location!.id)).shown).toMatchObject({ id: next.runId, mode: "incremental" });
    expect(await contactsNamed(location!.id, "zebedee")).toBe(1);
  }, 60_000);
});

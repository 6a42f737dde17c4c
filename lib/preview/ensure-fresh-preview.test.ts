import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { locations, previewRuns } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { startJobEngine } from "@/lib/jobs/job-engine";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { updateLocation } from "@/lib/locations/update-location";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { createSqlSourceReader } from "@/lib/source/sql-source-reader";
import { computePreviewJob } from "./compute-preview-job";
import { ensureFreshPreview } from "./ensure-fresh-preview";

// Opening the preview page: the web process asks, a pg-boss worker computes, both on this test's database.
const testDb = await useTestDatabase();
process.env.DATABASE_URL = testDb.url;
const { db } = testDb;
const engine = await startJobEngine({ databaseUrl: testDb.url, work: true, jobs: [computePreviewJob] as never, log: () => {} });
const reader = createSqlSourceReader({ url: testDb.url });
const support = { id: "00000000-0000-4000-8000-0000000000a1", role: "support", email: "support@example.test" } as const;
afterAll(async () => {
  await reader.close();
  await stopJobSender();
  await engine.stop();
});
const [sourceKey] = await generateDemoSource(db, { locations: 1, contacts: 20, years: 1, seed: 7 });

async function waitUntilFinished(runId: string) {
  for (let attempt = 0; attempt < 300; attempt++) {
    const [run] = await db.select().from(previewRuns).where(eq(previewRuns.id, runId));
    if (run && (run.status === "succeeded" || run.status === "failed")) return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the preview did not finish");
}

async function locationWithPreview(name: string) {
  const [location] = await db.insert(locations).values({ name, timeZone: "Europe/Berlin", country: "DE", sourceKey }).returning();
  const first = await ensureFreshPreview({ db, actor: support }, { location: location!, reader });
  expect(await waitUntilFinished(first.active!.id)).toMatchObject({ status: "succeeded" });
  return { location: location!, shown: first.active! };
}

describe("opening the preview page", () => {
  it("starts a run when the time zone or the automotive flag changed since the shown one, though the source did not", async () => {
    const { location, shown } = await locationWithPreview("Zone Salon");

    await updateLocation(
      { db, actor: systemActorAs("support@example.test", "test") },
      { locationId: location.id, timeZone: "America/New_York", automotive: true },
    );
    const [edited] = await db.select().from(locations).where(eq(locations.id, location.id));
    // The shown run mapped appointment times in Europe/Berlin, without vehicles; a sync now sends New York times and vehicles.
    const after = await ensureFreshPreview({ db, actor: support }, { location: edited!, reader });
    expect(after.shown!.id).toBe(shown.id);
    expect({ stale: after.stale, active: after.active !== null }).toEqual({ stale: true, active: true });
    expect(await waitUntilFinished(after.active!.id)).toMatchObject({ status: "succeeded", mode: "full" });

    const again = await ensureFreshPreview({ db, actor: support }, { location: edited!, reader });
    expect(again).toMatchObject({ stale: false, active: null, shown: { id: after.active!.id } });
  });

  it("replaces a run in flight whose process died with a new one, which a worker computes", async () => {
    const { location } = await locationWithPreview("Recovering Salon");
    await testDb.sql`update demo_source.customers set first_name = 'Changed', updated_at = now()
      where source_key = ${sourceKey!} and id = (select min(id) from demo_source.customers where source_key = ${sourceKey!})`;
    // A refresh whose worker was killed: its run is still marked running, its lease expired a minute ago.
    const [dead] = await db
      .insert(previewRuns)
      .values({ locationId: location.id, status: "running", fencingToken: 1, leaseExpiresAt: new Date(Date.now() - 60_000) })
      .returning();

    const opened = await ensureFreshPreview({ db, actor: support }, { location, reader });
    expect(opened.active).not.toBeNull();
    expect(opened.active!.id).not.toBe(dead!.id);
    expect(opened.lastFailed).toMatchObject({ id: dead!.id, status: "failed", error: "The process computing it stopped." });
    expect(await waitUntilFinished(opened.active!.id)).toMatchObject({ status: "succeeded" });
    expect(await ensureFreshPreview({ db, actor: support }, { location, reader })).toMatchObject({
      stale: false,
      active: null,
      shown: { id: opened.active!.id },
    });
  });

  it("leaves a run in flight whose process renews its lease", async () => {
    const { location } = await locationWithPreview("Busy Salon");
    // Inserted without a job: nothing computes it, but its lease holds for another minute.
    const [alive] = await db
      .insert(previewRuns)
      .values({ locationId: location.id, status: "running", fencingToken: 1, leaseExpiresAt: new Date(Date.now() + 60_000) })
      .returning();
    expect(await ensureFreshPreview({ db, actor: support }, { location, reader })).toMatchObject({ active: { id: alive!.id, status: "running" } });
    await db.update(previewRuns).set({ status: "failed" }).where(eq(previewRuns.id, alive!.id));
  });
});

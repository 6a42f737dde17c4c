import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { locations, previewRuns } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { startJobEngine } from "@/lib/jobs/job-engine";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { systemContext } from "@/lib/operations/context";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { createSqlSourceReader } from "@/lib/source/sql-source-reader";
import { DomainError } from "@/lib/errors/domain-error";
import { computePreviewJob } from "./compute-preview-job";
import { ensureFreshPreview } from "./ensure-fresh-preview";
import { requestPreview } from "./request-preview";

// The web process sends, a pg-boss worker computes: both on this test's database.
const testDb = await useTestDatabase();
process.env.DATABASE_URL = testDb.url;
const engine = await startJobEngine({ databaseUrl: testDb.url, work: true, jobs: [computePreviewJob] as never, log: () => {} });
const reader = createSqlSourceReader({ url: testDb.url });
/** Engineers may look at a preview but not refresh one: opening it keeps it fresh without naming them. */
const engineer = { id: "00000000-0000-4000-8000-0000000000e1", role: "engineer", email: "engineer@example.test" } as const;
afterAll(async () => {
  await reader.close();
  await stopJobSender();
  await engine.stop();
});

const [sourceKey] = await generateDemoSource(testDb.db, { locations: 1, contacts: 30, years: 1, seed: 5 });

async function waitUntilFinished(runId: string) {
  for (let attempt = 0; attempt < 300; attempt++) {
    const [run] = await testDb.db.select().from(previewRuns).where(eq(previewRuns.id, runId));
    if (run && (run.status === "succeeded" || run.status === "failed")) return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the preview did not finish");
}

describe("requestPreview", () => {
  it("starts one run per location however many ask at once, and a worker computes it", async () => {
    const [location] = await testDb.db
      .insert(locations)
      .values({ name: "Busy Salon", timeZone: "Europe/Berlin", country: "DE", sourceKey })
      .returning();
    const runs = await Promise.all(
      Array.from({ length: 10 }, () =>
        requestPreview(systemContext(testDb.db), { locationId: location!.id, requestedByEmail: "support@example.test" }),
      ),
    );
    expect(new Set(runs.map((run) => run.id)).size).toBe(1);
    const finished = await waitUntilFinished(runs[0]!.id);
    expect(finished.status).toBe("succeeded");
    expect(finished.counts!.contact_details!.sourceRows).toBeGreaterThanOrEqual(30);
  });

  it("is cached until the source changes", async () => {
    const [location] = await testDb.db
      .insert(locations)
      .values({ name: "Cached Salon", timeZone: "Europe/Berlin", country: "DE", sourceKey })
      .returning();
    const first = await ensureFreshPreview({ db: testDb.db, actor: engineer }, { location: location!, reader });
    expect(first.active!.requestedByEmail).toBeNull();
    await waitUntilFinished(first.active!.id);
    const cached = await ensureFreshPreview({ db: testDb.db, actor: engineer }, { location: location!, reader });
    expect(cached).toMatchObject({ active: null, stale: false, shown: { id: first.active!.id } });

    await testDb.sql`update demo_source.customers set first_name = 'Changed', updated_at = now() where source_key = ${sourceKey!} and id = (select min(id) from demo_source.customers where source_key = ${sourceKey!})`;
    const stale = await ensureFreshPreview({ db: testDb.db, actor: engineer }, { location: location!, reader });
    expect(stale.stale).toBe(true);
    expect(stale.active).not.toBeNull();
    await waitUntilFinished(stale.active!.id);
  });

  it("rebuilds: the run maps every source row though nothing changed since the last run", async () => {
    const [location] = await testDb.db
      .insert(locations)
      .values({ name: "Rebuilt Salon", timeZone: "Europe/Berlin", country: "DE", sourceKey })
      .returning();
    expect(
      await waitUntilFinished((await requestPreview(systemContext(testDb.db), { locationId: location!.id, requestedByEmail: null })).id),
    ).toMatchObject({ status: "succeeded", mode: "full" });
    expect(
      await waitUntilFinished((await requestPreview(systemContext(testDb.db), { locationId: location!.id, requestedByEmail: null })).id),
    ).toMatchObject({
      status: "succeeded",
      mode: "incremental",
    });
    const rebuild = await requestPreview(systemContext(testDb.db), {
      locationId: location!.id,
      rebuild: true,
      requestedByEmail: "support@example.test",
    });
    expect(rebuild.rebuild).toBe(true);
    expect(await waitUntilFinished(rebuild.id)).toMatchObject({ status: "succeeded", mode: "full", rebuild: true });
  });

  it("refuses a rebuild while a run that is no rebuild is in flight, and joins one that is", async () => {
    const [location] = await testDb.db
      .insert(locations)
      .values({ name: "Queued Salon", timeZone: "Europe/Berlin", country: "DE", sourceKey })
      .returning();
    // Inserted without a job: it stays queued.
    const [refresh] = await testDb.db.insert(previewRuns).values({ locationId: location!.id }).returning();
    const refused = await requestPreview(systemContext(testDb.db), { locationId: location!.id, rebuild: true, requestedByEmail: null }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: "CONFLICT" });
    expect((await requestPreview(systemContext(testDb.db), { locationId: location!.id, requestedByEmail: null })).id).toBe(refresh!.id);

    await testDb.db.update(previewRuns).set({ rebuild: true }).where(eq(previewRuns.id, refresh!.id));
    expect((await requestPreview(systemContext(testDb.db), { locationId: location!.id, rebuild: true, requestedByEmail: null })).id).toBe(
      refresh!.id,
    );
    await testDb.db.update(previewRuns).set({ status: "failed" }).where(eq(previewRuns.id, refresh!.id));
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { previewRuns } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { updateLocation } from "@/lib/locations/update-location";
import { planPreviewReads } from "@/lib/preview/preview-plan";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { createSqlSourceReader } from "@/lib/source/sql-source-reader";
import type { SourceRows } from "@/lib/source/testing/array-source-reader";
import { sampleNow as now } from "./testing/sample-source";
import { expectedUpstream, upstreamOf } from "./testing/expected-upstream";
import { createConnectedLocation, runManualTestSync, useSyncSandbox } from "./testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
const reader = createSqlSourceReader({ url: testDb.url });
// Customer numbers count up from the same start: the old salon has customers the new one does not.
const [oldSource] = await generateDemoSource(db, { locations: 1, contacts: 30, years: 1, seed: 13, today: "2026-03-10", sourceKeys: ["salon-old"] });
const [newSource] = await generateDemoSource(db, { locations: 1, contacts: 15, years: 1, seed: 14, today: "2026-03-10", sourceKeys: ["salon-new"] });

/** Every row of a demo source a sync reads, in the windows the preview reads (lib/preview/preview-plan.ts). */
async function sourceRowsOf(sourceKey: string, location: { timeZone: string; automotive: boolean }): Promise<SourceRows> {
  const rows: SourceRows = {};
  for (const read of planPreviewReads(location, now)) {
    const collected: unknown[] = [];
    for await (const batch of reader.read(read.resource, { sourceKey, windowStart: read.windowStart, windowEnd: read.windowEnd }))
      collected.push(...batch);
    (rows as Record<string, unknown[]>)[read.resource] = collected;
  }
  return rows;
}

async function sync(locationId: string) {
  // The safety valve has its own tests (customer-data.test.ts): here it lets every removal through.
  const session = await runManualTestSync(testDb.db, locationId, reader, { config: { removalThresholdPercent: 100 } });
  const [run] = session.previewRunId ? await db.select().from(previewRuns).where(eq(previewRuns.id, session.previewRunId)) : [];
  return { full: session.full, streamed: session.streamed, previewMode: run?.mode ?? null };
}

describe("changing where a location's data comes from", () => {
  it("makes the next preview and sync full, and leaves the upstream equal to the new source with the old source's customers unsubscribed", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: oldSource });
    const context = { timeZone: location.timeZone, country: location.country, dateTimeStyle: "spec" as const, now };
    expect(await sync(location.id)).toEqual({ full: false, streamed: true, previewMode: null });
    const before = await upstreamOf(db, location.upstreamLocationId);
    expect(Object.keys(before.contact_details).length).toBeGreaterThan(10);

    await updateLocation({ db, actor: systemActorAs("support@example.test", "test") }, { locationId: location.id, sourceKey: newSource });
    expect(await sync(location.id)).toEqual({ full: true, streamed: false, previewMode: "full" });

    const newRows = await sourceRowsOf(newSource!, location);
    const expected = expectedUpstream(before, newRows, context);
    const after = await upstreamOf(db, location.upstreamLocationId);
    expect(after).toEqual(expected);
    expect(Object.keys(expected.appointments).length).toBeGreaterThan(0);
    // Every customer of the old source that the new one does not have is unsubscribed from both channels.
    const newIds = new Set((newRows.customers ?? []).map((row) => row.id?.trim()));
    const oldOnly = Object.keys(before.contact_details).filter((key) => !newIds.has(key));
    expect(oldOnly.length).toBeGreaterThan(0);
    for (const key of oldOnly) expect(after.contact_details[key]).toMatchObject({ email_subscribed: false, text_message_subscribed: false });
  });
});

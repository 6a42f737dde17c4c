import { describe, expect, it } from "vitest";
import { previewRuns } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemContext } from "@/lib/operations/context";
import { computePreview } from "@/lib/preview/compute-preview";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import type { SourceReader } from "@/lib/source/source-reader";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { resumeSession } from "./session-actions";
import { sampleNow as now, sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, runManualTestSync, runTestSync, sandboxStored, useSyncSandbox } from "./testing/sync-test-setup";
import { keysMissingFromLedger } from "./testing/ledger-invariant";
import { unsyncedKeysKnown } from "./unsynced-keys";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);

const sync = (locationId: string, rows: SourceRows, expected: "succeeded" | "failed" = "succeeded") =>
  runManualTestSync(db, locationId, rows, { expect: expected, config: { stepAttempts: 1 }, client: { maxAttempts: 1 } });

async function stored(upstreamLocationId: string, type: "contact_details" | "appointments") {
  return Object.fromEntries(await sandboxStored(db, upstreamLocationId, type)) as Record<string, Record<string, unknown>>;
}

/** The sample, each row last changed long ago: an incremental preview reads again only what a test changes (now). */
function settledRows(): SourceRows {
  const rows = sampleSourceRows();
  const long = new Date("2026-01-01T00:00:00Z");
  rows.customers = rows.customers!.map((customer) => ({ ...customer, updated_at: long }));
  rows.appointments = rows.appointments!.map((appointment) => ({ ...appointment, updated_at: long }));
  return rows;
}

/** A location synced once (streamed): the full preview that follows compares it whole and starts its unsynced keys. */
async function syncedLocation(rows: SourceRows) {
  const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
  await sync(location.id, rows);
  expect(await unsyncedKeysKnown(db, location.id)).toBe(true);
  expect(await keysMissingFromLedger(db, location.id)).toEqual([]);
  return location;
}

describe("planning an incremental sync from the unsynced keys", () => {
  it("sends a change the location's preview took in by a rebuild from scratch, which compares the whole location once", async () => {
    const rows = settledRows();
    const location = await syncedLocation(rows);
    const renamed = (id: string, lastName: string) => {
      rows.customers = rows.customers!.map((customer) =>
        customer.id === id ? { ...customer, last_name: lastName, updated_at: new Date() } : customer,
      );
    };
    renamed("cu3", "Neumann");
    // A person rebuilds the preview: one full run over the changed source, which replaces every record.
    const [run] = await db.insert(previewRuns).values({ locationId: location.id, requestedByEmail: null, rebuild: true }).returning();
    await computePreview(systemContext(db), { runId: run!.id, reader: createArraySourceReader(structuredClone(rows)), now });
    expect(await unsyncedKeysKnown(db, location.id)).toBe(true);
    expect(await keysMissingFromLedger(db, location.id)).toEqual([]);

    await sync(location.id, rows);
    expect((await stored(location.upstreamLocationId, "contact_details")).cu3).toMatchObject({ last_name: "Neumann" });
    // That sync sent from its preview whole: the keys are known still, and the next change is planned from them.
    expect(await unsyncedKeysKnown(db, location.id)).toBe(true);
    renamed("cu2", "Zweite");
    await sync(location.id, rows);
    expect((await stored(location.upstreamLocationId, "contact_details")).cu2).toMatchObject({ last_name: "Zweite" });
  });

  it("a resume sends the appointments its failed session planned; a change it read meanwhile goes with the next sync", async () => {
    const rows = settledRows();
    const location = await syncedLocation(rows);
    const hours = (count: number) => new Date(Date.now() + count * 3_600_000);
    const priced = (id: string, price: string, updatedAt: Date) => {
      rows.appointments = rows.appointments!.map((appointment) =>
        appointment.id === id ? { ...appointment, price, updated_at: updatedAt } : appointment,
      );
    };
    // The source's clock as each session reads it: the next sync reads a5 again only if it changed 10 minutes before the resume read.
    const readAt = (clock: Date): SourceReader => ({ ...createArraySourceReader(structuredClone(rows)), clock: async () => clock });
    priced("a3", "41.00", new Date());
    await injectFault(db, { target: "batch_sync_appointments", mode: { kind: "status", status: 503 }, count: 5 });
    const failed = await sync(location.id, rows, "failed");
    await clearFaults(db);

    // Before the resume, a5 changes too: the resume's own preview reads it, but its appointment items were planned before.
    priced("a5", "77.00", hours(1));
    const resumed = await resumeSession({ db, actor: systemActor }, { sessionId: failed.id });
    await runTestSync(db, resumed.sessionId!, readAt(hours(2)));
    expect((await stored(location.upstreamLocationId, "appointments")).a3).toMatchObject({ price_cents: 4100 });

    await runManualTestSync(db, location.id, readAt(hours(4)));
    const upstream = await stored(location.upstreamLocationId, "appointments");
    expect(upstream.a5).toMatchObject({ price_cents: 7700 });
    expect(upstream.a3).toMatchObject({ price_cents: 4100 });
  });
});

describe("a quiet sync after a preview rebuilt from scratch", () => {
  it("does not trust the rebuilt preview to match what the upstream holds: a record it maps differently is sent", async () => {
    const rows = settledRows();
    // A birth date entered ahead of time: dropped while it is in the future, sent once it has passed.
    rows.customers = rows.customers!.map((customer) => (customer.id === "cu3" ? { ...customer, birthdate: "2026-03-11" } : customer));
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await sync(location.id, rows);
    expect((await stored(location.upstreamLocationId, "contact_details")).cu3).not.toHaveProperty("birthdate");

    // Two days on, a person rebuilds the preview (unchanged source): cu3 now maps with its birth date.
    const later = new Date(now.getTime() + 2 * 86_400_000);
    const [run] = await db.insert(previewRuns).values({ locationId: location.id, requestedByEmail: null, rebuild: true }).returning();
    await computePreview(systemContext(db), { runId: run!.id, reader: createArraySourceReader(structuredClone(rows)), now: later });
    // The source did not change since the first sync: this one is quiet, and sends no contact.
    const quiet = await runManualTestSync(db, location.id, rows, { now: later });
    expect(quiet.quiet).toBe(true);
    expect(await keysMissingFromLedger(db, location.id)).toEqual([]);

    // The next change goes with a sync planned from the preview: so does cu3's birth date, which the upstream never got.
    rows.customers = rows.customers!.map((customer) =>
      customer.id === "cu2" ? { ...customer, last_name: "Zweite", updated_at: new Date() } : customer,
    );
    await runManualTestSync(db, location.id, rows, { now: later });
    const upstream = await stored(location.upstreamLocationId, "contact_details");
    expect(upstream.cu2).toMatchObject({ last_name: "Zweite" });
    expect(upstream.cu3).toMatchObject({ birthdate: "2026-03-11" });
  });
});

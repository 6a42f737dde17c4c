import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { pointEnvironmentAtSandbox } from "@/lib/environments/point-at-sandbox";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { startSandboxServer } from "@/lib/sandbox/server";
import { createSandboxFixture } from "@/lib/sandbox/testing";
import type { SourceRows } from "@/lib/source/testing/array-source-reader";
import { sampleSourceRows } from "./testing/sample-source";
import { compareType } from "./testing/sync-assertions";
import { createConnectedLocation, runManualTestSync, sandboxRequests, sandboxStored } from "./testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
// The sandbox refuses an opening beyond 72 hours from its own clock: here the session's.
let now = new Date();
const sandbox = await startSandboxServer({ db, faultsEnabled: true, now: () => now });
const fixture = await createSandboxFixture(db);
await pointEnvironmentAtSandbox(
  { db, actor: systemActor },
  { name: "staging", apiBaseUrl: sandbox.apiBaseUrl, uploadOrigin: sandbox.uploadOrigin, credentials: fixture },
);
afterAll(async () => {
  await sandbox.close();
  await stopJobSender();
});

const slot = (startsAt: string) => ({ staff_id: "s1", service_id: "sv1", starts_at: startsAt });
const salon = (availability: SourceRows["availability"]): SourceRows => ({ ...sampleSourceRows(), availability });

async function sentStarts(upstreamLocationId: string): Promise<string[]> {
  const stored = await sandboxStored(db, upstreamLocationId, "openings");
  return [...stored.values()].map((data) => (data as { start_at: string }).start_at).sort();
}

async function syncAt(at: string, locationId: string, rows: SourceRows) {
  now = new Date(at);
  return runManualTestSync(db, locationId, rows, { now });
}

describe("openings at the ends of the 72 hours, across a clock change (Berlin)", () => {
  it("leaves out a slot typed in the skipped spring-forward hour that the gap moves past the 72 hours, in a streamed and a preview session", async () => {
    const location = await createConnectedLocation(db, { sandbox, fixture, close: async () => {} }, { sourceKey: "array" });
    // 02:10 on 26 March; 72 hours later is 03:10 on the 29th (summer time). A slot typed 02:30 on the 29th is read
    // (02:30 < 03:10 as wall times) and placed at 03:30 by the skipped hour: 20 minutes beyond the horizon.
    const rows = salon([slot("2026-03-26 10:00:00"), slot("2026-03-29 01:30:00"), slot("2026-03-29 02:30:00")]);
    const first = await syncAt("2026-03-26T01:10:00Z", location.id, rows);
    expect(first.streamed).toBe(true);
    expect(await sentStarts(location.upstreamLocationId)).toEqual(["2026-03-26T10:00:00Z+01:00", "2026-03-29T01:30:00Z+01:00"]);

    // Ten minutes later, with a changed customer: a session sent from its preview. 72 hours on is 03:20 summer time.
    rows.customers = rows.customers!.map((customer) => (customer.id === "cu1" ? { ...customer, first_name: "Anne" } : customer));
    rows.availability!.push(slot("2026-03-26 11:00:00"), slot("2026-03-29 02:45:00"));
    const second = await syncAt("2026-03-26T01:20:00Z", location.id, rows);
    expect(second.streamed).toBe(false);
    expect(await sentStarts(location.upstreamLocationId)).toEqual([
      "2026-03-26T10:00:00Z+01:00",
      "2026-03-26T11:00:00Z+01:00",
      "2026-03-29T01:30:00Z+01:00",
    ]);
    expect((await sandboxRequests(db, location.upstreamLocationId)).filter((line) => / 4\d\d$/.test(line))).toEqual([]);
    // The preview at the session's moment lists what was sent.
    const compared = await compareType(db, { locationId: location.id, upstreamLocationId: location.upstreamLocationId, type: "openings" });
    expect(compared.expected).toEqual(compared.stored);
  }, 60_000);

  it("leaves out a slot typed in the repeated autumn hour that its earlier instant places before the session's moment", async () => {
    const location = await createConnectedLocation(db, { sandbox, fixture, close: async () => {} }, { sourceKey: "array" });
    // 02:10 on 25 October, the second time (winter time, 01:10Z). A slot typed 02:30 is read (02:30 ≥ 02:10 as wall
    // times) and placed at the first 02:30 (summer time, 00:30Z): 40 minutes ago.
    const rows = salon([slot("2026-10-25 02:30:00"), slot("2026-10-25 10:00:00")]);
    await syncAt("2026-10-25T01:10:00Z", location.id, rows);
    expect(await sentStarts(location.upstreamLocationId)).toEqual(["2026-10-25T10:00:00Z+01:00"]);
  }, 60_000);
});

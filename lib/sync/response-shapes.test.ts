import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { testConnection } from "@/lib/locations/test-connection";
import { setSandboxResponseShape } from "@/lib/sandbox/provision";
import { sandboxResponseShapes } from "@/lib/sandbox/response-shapes";
import type { SourceRows } from "@/lib/source/testing/array-source-reader";
import { sampleSourceRows } from "./testing/sample-source";
import { compareType } from "./testing/sync-assertions";
import { createConnectedLocation, noWaits, runManualTestSync, sandboxRequests, useSyncSandbox } from "./testing/sync-test-setup";

// Where the spec shows no response body, the sandbox answers in every shape a real service might: the whole flow
// (connect, Test connection, full sync, incremental sync) must succeed in each, over real HTTP.
const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);

const sync = (locationId: string, rows: SourceRows) => runManualTestSync(testDb.db, locationId, rows);

const sentTypes = ["calendars", "service_categories", "services", "contact_details", "appointments", "openings"] as const;

async function expectSandboxHoldsSource(location: { id: string; upstreamLocationId: string }, rows: SourceRows) {
  for (const type of sentTypes) {
    const compared = await compareType(db, { locationId: location.id, upstreamLocationId: location.upstreamLocationId, type, rows });
    expect(Object.keys(compared.expected).length, type).toBeGreaterThan(0);
    expect(compared.stored, type).toEqual(compared.expected);
    expect(compared.syncedKeys, type).toEqual(Object.keys(compared.expected).sort());
  }
}

describe.each(sandboxResponseShapes)("the sandbox answering unshown bodies as %s", (responseShape) => {
  it("connects, tests the connection, and runs a full then an incremental sync", async () => {
    await setSandboxResponseShape(db, { environmentId: setup.fixture.environmentId, responseShape });
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    expect(location.upstreamLocationId).toBeTruthy();

    const actor = systemActorAs("support@example.test", "198.51.100.1");
    const check = await testConnection({ db, actor: actor, upstreamClient: noWaits }, { locationId: location.id });
    expect(check).toMatchObject({ ok: true, location: { lastCheckOk: true, attentionReason: null } });
    const named = responseShape === "documented" || responseShape === "extra";
    expect(check.message).toBe(named ? `Connected: the token acts as ${setup.fixture.owner.email}.` : "Connected.");

    const rows = sampleSourceRows();
    await sync(location.id, rows);
    await expectSandboxHoldsSource(location, rows);
    const requestsBefore = (await sandboxRequests(db, location.upstreamLocationId)).length;

    // Edit a customer and move an appointment: the incremental sync sends them and the sandbox holds the change.
    rows.customers = rows.customers!.map((row) => (row.id === "cu2" ? { ...row, first_name: "Berta" } : row));
    rows.appointments = rows.appointments!.map((row) =>
      row.id === "a3" ? { ...row, starts_at: "2026-03-15 09:00:00", ends_at: "2026-03-15 09:30:00" } : row,
    );
    await sync(location.id, rows);
    await expectSandboxHoldsSource(location, rows);
    const compare = (type: "contact_details" | "appointments") =>
      compareType(db, { locationId: location.id, upstreamLocationId: location.upstreamLocationId, type, rows });
    expect((await compare("contact_details")).stored.cu2).toMatchObject({ first_name: "Berta" });
    expect((await compare("appointments")).stored.a3).toMatchObject({ start_at: expect.stringMatching(/^2026-03-15T09:00:00Z/) });

    // Every answer of the second session was a 2xx in this shape (204 where the shape says so).
    const answered = (await sandboxRequests(db, location.upstreamLocationId)).slice(requestsBefore);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.filter((line) => !/ 20[04]$/.test(line))).toEqual([]);
    expect(answered.some((line) => line.endsWith(" 204"))).toBe(responseShape === "no_content");
  });
});

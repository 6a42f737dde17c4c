import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, sandboxEnvironments } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { getEnvironmentView } from "@/lib/environments/get-environment-view";
import { updateEnvironment } from "@/lib/environments/update-environment";
import { sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, runManualTestSync, sandboxRequests, sandboxStored, useSyncSandbox } from "./testing/sync-test-setup";

// An environment may write plain RFC 3339 date-times should the real service want them (docs/upstream.md): an admin
// switches it, and the next sync sends every appointment and opening again in that form.
const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
const admin = systemActorAs("admin@example.test", "198.51.100.20");

const specForm = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ[+-]\d\d:\d\d$/;
const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;

async function upstreamTimes(upstreamLocationId: string): Promise<string[]> {
  const times: string[] = [];
  for (const type of ["appointments", "openings"] as const)
    for (const record of (await sandboxStored(db, upstreamLocationId, type)).values()) {
      const { start_at, end_at } = record as { start_at: string; end_at?: string };
      times.push(start_at, ...(end_at === undefined ? [] : [end_at]));
    }
  return times;
}

describe("the environment's date-time form", () => {
  it("is the spec's by default; switched to RFC 3339, the next sync sends every appointment and opening in it", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    await runManualTestSync(db, location.id, rows);
    const before = await upstreamTimes(location.upstreamLocationId);
    expect(before.length).toBeGreaterThan(0);
    for (const time of before) expect(time).toMatch(specForm);

    const view = await getEnvironmentView({ db, actor: admin }, { name: "staging" });
    expect(view.dateTimeStyle).toBe("spec");
    const { baseUrl, uploadHosts, clientId, dataSourceName } = view;
    const updated = await updateEnvironment(
      { db, actor: admin },
      { name: "staging", settings: { baseUrl, uploadHosts, clientId, dataSourceName, dateTimeStyle: "rfc3339" } },
    );
    expect(updated.dateTimeStyle).toBe("rfc3339");
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "environment.updated"));
    expect(audit?.details).toMatchObject({ changedFields: ["dateTimeStyle"] });
    // The sandbox stands in for a service that wants RFC 3339: it refuses the spec's form from now on.
    await db.update(sandboxEnvironments).set({ dateTimeStyle: "rfc3339" }).where(eq(sandboxEnvironments.id, setup.fixture.environmentId));
    try {
      const requestsBefore = (await sandboxRequests(db, location.upstreamLocationId)).length;
      await runManualTestSync(db, location.id, rows);
      const after = await upstreamTimes(location.upstreamLocationId);
      expect(after).toHaveLength(before.length);
      for (const time of after) expect(time).toMatch(rfc3339);
      // Same instants, another form: the wall time and offset are kept, only the Z goes.
      expect(after.sort()).toEqual(before.map((time) => time.replace("Z", "")).sort());
      const sent = (await sandboxRequests(db, location.upstreamLocationId)).slice(requestsBefore);
      expect(sent.filter((request) => request.startsWith("POST batch_sync_appointments")).length).toBeGreaterThan(0);
      expect(sent.filter((request) => request.startsWith("POST batch_sync_openings")).length).toBeGreaterThan(0);
    } finally {
      await db.update(sandboxEnvironments).set({ dateTimeStyle: "spec" }).where(eq(sandboxEnvironments.id, setup.fixture.environmentId));
      await updateEnvironment(
        { db, actor: admin },
        { name: "staging", settings: { baseUrl, uploadHosts, clientId, dataSourceName, dateTimeStyle: "spec" } },
      );
    }
  });
});
